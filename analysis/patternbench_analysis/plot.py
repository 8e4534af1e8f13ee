"""`plot`: every chart the given results folders support, as PNG and SVG."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from .charts import atomics, cache, clock, invalidation, readiness, throttle
from .charts.common import Chart
from .results import ResultsFolder, combined, workloads


def render_all(folders: list[ResultsFolder], out_dir: Path, max_timelines: int | None = None,
               log=lambda message: print(message, file=sys.stderr)) -> list[Chart]:
    charts: list[Chart] = []
    for workload in workloads(folders):
        runs = combined(folders, workload)
        if workload == "throttle":
            chart = throttle.frontier(runs, out_dir)
            charts += [chart] if chart else []
            events = [f.events for f in folders if f.events is not None]
            if events:
                charts += throttle.timelines(runs, pd.concat(events, ignore_index=True), out_dir, max_timelines)
        elif workload == "atomics":
            charts += atomics.charts(runs, out_dir)
        elif workload == "clock":
            chart = clock.heatmap(runs, out_dir)
            charts += [chart] if chart else []
        elif workload == "readiness":
            chart = readiness.launch(runs, out_dir)
        elif workload == "invalidation":
            chart = invalidation.staleness_cost(runs, out_dir)
        elif workload == "cache":
            chart = cache.hit_ratio_vs_capacity(runs, out_dir)
            charts += [chart] if chart else []
        else:
            log(f"note: no charts for workload '{workload}' (its numbers are still in the report and exports)")
    return charts
