"""throttle: the latency/hitch frontier, the per-scenario timelines and worst seconds (from the
folders' `--events`), and a p99 / hitch table per mode."""

from __future__ import annotations

import pandas as pd

from ..charts import throttle, throttle_worst
from ..charts.common import Chart
from ..charts.throttle import HITCH, P99, ordered
from ..headlines import Table, counts_text, spread
from ..results import WorkloadRun
from ..view_registry import ChartRequest, View, or_generic


def charts(runs: list[WorkloadRun], request: ChartRequest) -> list[Chart | None]:
    made: list[Chart | None] = [throttle.frontier(runs, request.out_dir)]
    events = request.run_set.events
    if events is not None:
        made += throttle.timelines(runs, events, request.out_dir, request.max_timelines)
        made += throttle_worst.worst_seconds(runs, events, request.out_dir, request.max_timelines)
    return made


def throttle_tables(runs: list[WorkloadRun]) -> list[Table]:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    tables = []
    for mode in sorted(table["mode"].unique()):
        sub = table[(table["mode"] == mode) & table["metric"].isin([P99, HITCH])]
        if sub.empty:
            continue
        groups = {key: g["value"] for key, g in sub.groupby(["scenario", "variant", "metric"])}
        scenarios = list(dict.fromkeys(sub["scenario"]))
        policies = ordered(sub["variant"].unique())
        rows, bold = [], set()
        for policy in policies:
            row, counts = [policy], []
            for scenario in scenarios:
                p99 = groups.get((scenario, policy, P99), pd.Series(dtype=float))
                hitch = groups.get((scenario, policy, HITCH), pd.Series(dtype=float))
                counts.append(len(p99.dropna()))
                row.append(f"{spread(p99)} / {spread(hitch)}")
            rows.append([row[0], counts_text(counts), *row[1:]])
        for j, scenario in enumerate(scenarios, start=2):
            medians = {p: groups[(scenario, p, P99)].median() for p in policies if (scenario, p, P99) in groups}
            medians = {p: v for p, v in medians.items() if pd.notna(v)}
            if medians:
                bold.add((policies.index(min(medians, key=lambda p: medians[p])), j))
        tables.append(
            Table(
                caption=f"p99 latency (ms) / hitch ratio (ms/s): median (min–max) over n seeds, {mode} mode; "
                "bold: lowest median p99 per scenario",
                header=["policy", "n", *scenarios],
                rows=rows,
                bold=bold,
            )
        )
    return tables


VIEW = View(workload="throttle", charts=charts, tables=or_generic(throttle_tables))
