"""PatternBench analysis: charts, run report, dashboard exports and merging of results folders.

Everything reads the results schema (version 1, documented in results/README.md) and refuses
anything else with a one-line error.
"""

__version__ = "1.0.0"
