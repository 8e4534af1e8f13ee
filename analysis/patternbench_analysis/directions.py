"""Which way is better for each metric: the compare verdict and the history's change points need it.

Known from the name (the schema's metric names end in their unit and say what they count); the
regression gate's `hardware_metrics` in results/thresholds.json override where they say otherwise.
A metric whose direction is unknown is still compared; its verdict says "changed" instead of
better or worse.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

LOWER, HIGHER, UNKNOWN = "lower_is_better", "higher_is_better", "unknown"

HIGHER_PATTERNS = [
    r"ops_per_s$",
    r"per_s$(?<!ms_per_s)",
    r"throughput",
    r"fairness",
    r"co_scheduled_fraction",
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
    gate = _gate_directions().get((workload, metric))
    if gate:
        return gate
    name = metric.lower()
    if any(re.search(p, name) for p in HIGHER_PATTERNS):
        return HIGHER
    if any(re.search(p, name) for p in LOWER_PATTERNS):
        return LOWER
    return UNKNOWN
