"""atomics: ns/op per strategy and thread count with fairness and co-scheduling, and the
co-scheduling probe's line above the tables."""

from __future__ import annotations

import pandas as pd

from ..charts import atomics
from ..charts.atomics import CO, CO_THRESHOLD, JAIN, NS, STRATEGY_ORDER, cells, probe_text, work_text
from ..charts.common import Chart
from ..headlines import Table, counts_text, fmt
from ..results import WorkloadRun
from ..view_registry import ChartRequest, View, or_generic


def charts(runs: list[WorkloadRun], request: ChartRequest) -> list[Chart | None]:
    return list(atomics.charts(runs, request.out_dir))


def atomics_tables(runs: list[WorkloadRun]) -> list[Table]:
    data = cells(runs)
    if data.empty:
        return []
    tables = []
    combos = list(
        dict.fromkeys(
            zip(
                data["scenario"],
                data["cs_work_ns"].fillna(-1),
                data["gap_work_ns"].fillna(-1),
                data["mode"],
                strict=True,
            )
        )
    )
    for operation, cs, gap, mode in combos[:6]:
        cell = data[
            (data["scenario"] == operation)
            & (data["cs_work_ns"].fillna(-1) == cs)
            & (data["gap_work_ns"].fillna(-1) == gap)
            & (data["mode"] == mode)
        ]
        threads = sorted(cell["threads_n"].dropna().unique())
        strategies = [s for s in STRATEGY_ORDER if s in set(cell["variant"])] + sorted(
            set(cell["variant"]) - set(STRATEGY_ORDER)
        )
        rows = []
        most = threads[-1] if threads else None
        for strategy in strategies:
            s = cell[cell["variant"] == strategy].set_index("threads_n")
            row = [strategy, counts_text(s["n"])]
            for t in threads:
                if t not in s.index:
                    row.append("–")
                    continue
                median, low, high = s.loc[t, NS], s.loc[t, f"{NS}_min"], s.loc[t, f"{NS}_max"]
                row.append(fmt(median) if low == high else f"{fmt(median)} ({fmt(low)}–{fmt(high)})")
            at_most = s.loc[most] if most in s.index else None
            row.append(fmt(at_most[JAIN]) if at_most is not None else "–")
            serialized = (
                at_most is not None
                and pd.notna(at_most[CO])
                and at_most[CO] < CO_THRESHOLD
                and most is not None
                and most > 1
            )
            row.append(fmt(at_most[CO]) + (" (took turns)" if serialized else "") if at_most is not None else "–")
            rows.append(row)
        header = (
            ["strategy", "n"]
            + [f"{t:g} threads (ns/op)" for t in threads]
            + [f"fairness at {most:g}" if most else "fairness", f"co-scheduled at {most:g}" if most else "co-scheduled"]
        )
        cs_text = work_text(cs if cs >= 0 else None)
        gap_text = work_text(gap if gap >= 0 else None)
        tables.append(
            Table(
                caption=f"{operation}, cs_work {cs_text}, gap_work {gap_text}, {mode}: ns/op median (min–max) "
                "over n repetitions; fairness and co-scheduled fraction: medians",
                header=header,
                rows=rows,
            )
        )
    if len(combos) > 6:
        tables[-1].caption += f" (first 6 of {len(combos)} cells; see the charts and the CSV for the rest)"
    return tables


VIEW = View(workload="atomics", charts=charts, tables=or_generic(atomics_tables), probe=probe_text)
