"""Which way is better for each metric: the compare verdict and the history's change points need it.

Known from the name (the schema's metric names end in their unit and say what they count); the
regression gate's `hardware_metrics` in results/thresholds.json override where they say otherwise.
A metric whose direction is unknown is still compared; its verdict says "changed" instead of
better or worse. A metric that describes the host during the run rather than the code under test
(`HOST_CONDITIONS`) has no better or worse at all: it is reported as a condition beside the verdicts.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

LOWER, HIGHER, UNKNOWN, HOST = "lower_is_better", "higher_is_better", "unknown", "host_condition"

# Metrics that describe the machine during a run, not the code under test: the co-scheduling
# probe's fraction (whether two threads could run at once), preemptions by other processes
# (involuntary context switches), and the fixed measuring window and the CPU time a thread was
# given in it. A change in them explains other changes (the host was busier), so calling it "worse"
# blamed the code for the machine's load. Voluntary context switches are the code's (a lock that
# sleeps) and stay judged. VerdictRule.hostConditions in Swift holds the same names.
HOST_CONDITIONS = frozenset({"co_scheduled_fraction", "involuntary_ctx_switches", "elapsed_ms", "cpu_time_ms"})

HIGHER_PATTERNS = [
    r"ops_per_s$",
    r"per_s$(?<!ms_per_s)",
    r"throughput",
    r"fairness",
    r"hit_ratio",
    r"hits$",
    r"delivered",
]
LOWER_PATTERNS = [
    r"latency",
    r"hitch",
    r"error",
    r"negative",
    r"missed",
    r"janky",
    r"lost",
    r"early",
    r"late",
    r"stall",
    r"resets?$",
    r"per_op$",
    r"_ms$",
    r"_us$",
    r"_ns$",
    r"_s$",
    r"_ms_per_s$",
    r"cost",
    r"overhead",
    r"ratio_to_",
    r"cpu_ratio",
    r"memory",
    r"kib$",
    r"bytes",
    r"allocations",
    r"drops?$",
    r"dropped",
    r"timeouts",
    r"backlog",
    r"pending",
]
THRESHOLDS = Path(__file__).resolve().parents[2] / "results" / "thresholds.json"


@lru_cache(maxsize=1)
def _gate_directions() -> dict[tuple[str, str], str]:
    try:
        document = json.loads(THRESHOLDS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {
        (m.get("workload"), m.get("metric")): m.get("direction")
        for m in document.get("hardware_metrics", [])
        if m.get("direction") in (LOWER, HIGHER)
    }


def direction(workload: str, metric: str) -> str:
    if metric in HOST_CONDITIONS:
        return HOST
    gate = _gate_directions().get((workload, metric))
    if gate:
        return gate
    name = metric.lower()
    if any(re.search(p, name) for p in HIGHER_PATTERNS):
        return HIGHER
    if any(re.search(p, name) for p in LOWER_PATTERNS):
        return LOWER
    return UNKNOWN
