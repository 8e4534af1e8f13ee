"""`plot`: every chart the given results folders support, as PNG and SVG."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

from .charts import atomics, cache, clock, generic, group, invalidation, lifecycle, readiness, throttle, throttle_worst
from .charts.common import Chart
from .results import ResultsFolder, combined, workloads
from .workloads import registry

# Workloads drawn as one chart each: the function returns the chart, or None when the runs hold
# none of the rows it draws.
SINGLE_CHARTS = {
    "clock": clock.heatmap,
    "readiness": readiness.launch,
    "invalidation": invalidation.staleness_cost,
    "cache": cache.hit_ratio_vs_capacity,
    "group": group.cost,
    "lifecycle": lifecycle.outcomes,
}


def render_all(
    folders: list[ResultsFolder],
    out_dir: Path,
    max_timelines: int | None = None,
    log=lambda message: print(message, file=sys.stderr),
    progress=lambda message: None,
) -> list[Chart]:
    """Every chart of every workload; `progress` hears one line per workload before it is drawn."""
    charts: list[Chart] = []
    names = workloads(folders)
    for index, workload in enumerate(names, start=1):
        progress(f"drawing {workload} ({index}/{len(names)} workloads, {len(charts)} charts so far)")
        runs = combined(folders, workload)
        if workload == "throttle":
            made: list[Chart | None] = [throttle.frontier(runs, out_dir)]
            events = [f.events for f in folders if f.events is not None]
            if events:
                events = pd.concat(events, ignore_index=True)
                made += throttle.timelines(runs, events, out_dir, max_timelines)
                made += throttle_worst.worst_seconds(runs, events, out_dir, max_timelines)
        elif workload in SINGLE_CHARTS:
            made = [SINGLE_CHARTS[workload](runs, out_dir)]
        elif workload == "atomics":
            made = list(atomics.charts(runs, out_dir))
        elif workload in registry():
            # A registered workload without its own chart yet (scripts/new-workload makes one).
            made = [generic.medians(runs, out_dir)]
        else:
            log(f"note: no charts for workload '{workload}' (its numbers are still in the report and exports)")
            continue
        drawn = [chart for chart in made if chart is not None]
        if not drawn:
            log(
                f"note: workload '{workload}' has no rows its charts draw (its numbers are still in the report and exports)"
            )
        charts += drawn
    return charts
