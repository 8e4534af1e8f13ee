"""clock: the timing-error heatmap and the worst error per scenario and time source."""

from __future__ import annotations

import pandas as pd

from ..charts.clock import SOURCE_ORDER, error_table, heatmap, human_us
from ..headlines import Table, counts_text
from ..results import WorkloadRun
from ..view_registry import View, or_generic, single_chart


def clock_tables(runs: list[WorkloadRun]) -> list[Table]:
    data, _skipped = error_table(runs)
    if data.empty:
        return []
    scenarios = list(dict.fromkeys(s for r in runs for s in r.table["scenario"] if s in set(data["scenario"])))
    present = set(data["variant"])
    sources = [s for s in SOURCE_ORDER if s in present] + sorted(present - set(SOURCE_ORDER))
    worst = data.groupby(["scenario", "variant"])["error_us"].max()
    worst_row = data.loc[data.groupby(["scenario", "variant"])["error_us"].idxmax().dropna()].set_index(
        ["scenario", "variant"]
    )
    negative = data.groupby(["scenario", "variant"])["negative"].sum(min_count=1)
    rows, bold = [], set()
    for i, scenario in enumerate(scenarios):
        row = [scenario]
        for j, source in enumerate(sources, start=1):
            err = worst.get((scenario, source))
            neg = negative.get((scenario, source))
            text = human_us(err) if err is not None and pd.notna(err) else "–"
            if (scenario, source) in worst_row.index:
                w = worst_row.loc[(scenario, source)]
                if pd.notna(w["error_min_us"]) and w["error_min_us"] != w["error_max_us"]:
                    text += f" ({human_us(w['error_min_us'])}–{human_us(w['error_max_us'])})"
            if neg is not None and pd.notna(neg) and neg > 0:
                text += f", {int(neg)} negative"
                bold.add((i, j))
            row.append(text)
        rows.append([*row[:1], counts_text(data[data["scenario"] == scenario]["n"].dropna()), *row[1:]])
    bold = {(i, j + 1) for i, j in bold}
    clients = ", ".join(dict.fromkeys(data["client"]))
    return [
        Table(
            caption=f"worst timing error over clients ({clients}): median over n seeds (min–max over the seeds "
            "where they differ); bold: negative durations measured",
            header=["scenario", "n", *sources],
            rows=rows,
            bold=bold,
        )
    ]


VIEW = View(workload="clock", charts=single_chart(heatmap), tables=or_generic(clock_tables))
