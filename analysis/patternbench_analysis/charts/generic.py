"""The chart of a workload without charts of its own (a new one, from scripts/new-workload).

One panel per metric (the first four, in the CSV's order), scenarios on the x axis, one bar per
variant: the median over seeds and repetitions, each mode apart (`sim`, `live`). It keeps a new
workload visible in `plot` and the report from its first run; a workload replaces it with its own
chart in `plot.py` (docs/architecture.md, "Adding a workload with the scaffold").
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt

from ..results import WorkloadRun
from .common import Chart, layout, range_bars, save, seed_summary, spread_text, tag, variant_style

MAX_METRICS = 4


def medians(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    import pandas as pd

    table = pd.concat([r.table for r in runs], ignore_index=True)
    if table.empty:
        return None
    workload = runs[0].workload
    metrics = list(dict.fromkeys(table["metric"]))[:MAX_METRICS]
    scenarios = list(dict.fromkeys(table["scenario"]))
    series_keys = list(dict.fromkeys(zip(table["variant"], table["mode"], strict=True)))
    modes = {mode for _, mode in series_keys}
    styles = variant_style(list(dict.fromkeys(v for v, _ in series_keys)))
    units = table.groupby("metric")["unit"].first()
    stats = seed_summary(table, ["metric", "scenario", "variant", "mode"])
    values = stats["median"]
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.4 * len(metrics) + 2.6, 3.8), squeeze=False)
    width = 0.8 / len(series_keys)
    series: list[str] = []
    for ax, metric in zip(axes[0], metrics, strict=True):
        for k, (variant, mode) in enumerate(series_keys):
            xs = [i + (k - (len(series_keys) - 1) / 2) * width for i in range(len(scenarios))]
            ys = [values.get((metric, s, variant, mode), float("nan")) for s in scenarios]
            label = variant if len(modes) == 1 else f"{variant} ({mode})"
            bars = ax.bar(
                xs,
                ys,
                width=width,
                color=styles[variant]["color"],
                label=label,
                hatch="//" if mode == "live" and len(modes) > 1 else None,
            )
            lows = [stats["min"].get((metric, s, variant, mode), float("nan")) for s in scenarios]
            highs = [stats["max"].get((metric, s, variant, mode), float("nan")) for s in scenarios]
            range_bars(
                ax,
                xs,
                ys,
                yerr=[
                    [max(y - lo, 0) for y, lo in zip(ys, lows, strict=True)],
                    [max(hi - y, 0) for y, hi in zip(ys, highs, strict=True)],
                ],
                series=f"{metric}:{variant}:{mode}",
                color="#222222",
                elinewidth=0.8,
                capsize=2,
            )
            for scenario, patch in zip(scenarios, bars.patches, strict=True):
                name = f"{metric}:{scenario}:{variant}:{mode}"
                tag(patch, name, variant)
                series.append(name)
        ax.set_xticks(range(len(scenarios)), scenarios)
        ax.set_title(metric)
        ax.set_ylabel(units.get(metric, ""))
        ax.grid(True, axis="y", alpha=0.3)
    handles, names = axes[0][0].get_legend_handles_labels()
    legend = fig.legend(handles, names, loc="center right", title="variant", fontsize=8)
    title = f"bench-{workload}: medians per scenario and variant"
    layout(
        fig,
        title,
        f"bars: {spread_text(stats['n'], spread='whiskers: min–max')}; the workload's generic chart (add its own in plot.py)",
        right_legend=legend,
    )
    return save(fig, out_dir, f"{workload}-medians", title, workload, runs, series)
