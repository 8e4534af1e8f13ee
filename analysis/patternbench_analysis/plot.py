"""`plot`: every chart the given results folders support, as PNG and SVG."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from .charts.common import Chart
from .results import ResultsFolder
from .run_set import RunSet
from .view_registry import ChartRequest, view_for


def render_all(
    folders: RunSet | Sequence[ResultsFolder],
    out_dir: Path,
    max_timelines: int | None = None,
    log=lambda message: print(message, file=sys.stderr),
    progress=lambda message: None,
) -> list[Chart]:
    """Every chart of every workload, each drawn by its view (view_registry); `progress` hears one
    line per workload before it is drawn."""
    run_set = RunSet.of(folders)
    request = ChartRequest(out_dir=out_dir, max_timelines=max_timelines, run_set=run_set)
    charts: list[Chart] = []
    names = run_set.workloads
    for index, workload in enumerate(names, start=1):
        progress(f"drawing {workload} ({index}/{len(names)} workloads, {len(charts)} charts so far)")
        view = view_for(workload)
        if view is None:
            log(f"note: no charts for workload '{workload}' (its numbers are still in the report and exports)")
            continue
        drawn = [chart for chart in view.charts(run_set.runs(workload), request) if chart is not None]
        if not drawn:
            log(
                f"note: workload '{workload}' has no rows its charts draw (its numbers are still in the report and exports)"
            )
        charts += drawn
    return charts
