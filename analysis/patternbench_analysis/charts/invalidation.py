"""Invalidation chart: what each design costs against how stale it lets reads get.

One column per scenario. Top row: stale reads served by the main app (log scale, 0 drawn at the
floor), with the missed invalidations written on each bar. Bottom row: extra store reads — reads
an exact invalidation would not have needed (the cost of emptying whole caches, or ours' change-log
queries). Medians over seeds; live runs are drawn hatched beside the simulated bars.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from ..results import WorkloadRun
from .common import Chart, color_map, finish, place_labels, range_bars, right_legend, spread_text, tag

VARIANT_ORDER = ["signal", "signal-legacy", "no-invalidation", "change-log"]
ROWS = [("stale_reads", "stale reads\n(main app, log)"), ("extra_store_reads", "extra store reads\n(log)")]


def medians(runs: list[WorkloadRun]) -> pd.DataFrame:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    wanted = table[table["metric"].isin([m for m, _ in ROWS] + ["missed_invalidations"])]
    grouped = wanted.groupby(["scenario", "variant", "mode", "metric"], sort=False)["value"]
    return pd.DataFrame(
        {"value": grouped.median(), "min": grouped.min(), "max": grouped.max(), "n": grouped.count()}
    ).reset_index()


def staleness_cost(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    data = medians(runs)
    if data.empty:
        return None
    scenarios = list(dict.fromkeys(data["scenario"]))
    present = set(data["variant"])
    variants = [v for v in VARIANT_ORDER if v in present] + sorted(present - set(VARIANT_ORDER))
    modes = [m for m in ["sim", "live"] if m in set(data["mode"])]
    colors = color_map(VARIANT_ORDER + sorted(present - set(VARIANT_ORDER)), "invalidation")
    fig, axes = plt.subplots(len(ROWS), len(scenarios), figsize=(3.6 * len(scenarios) + 2.0, 6.4), squeeze=False)
    series: list[str] = []
    width = 0.8 / len(modes)

    def value(scenario, variant, mode, metric, column="value"):
        hit = data[
            (data.scenario == scenario) & (data.variant == variant) & (data["mode"] == mode) & (data.metric == metric)
        ]
        return None if hit.empty else float(hit[column].iloc[0])

    for col, scenario in enumerate(scenarios):
        for row, (metric, label) in enumerate(ROWS):
            ax = axes[row][col]
            notes: list = []
            tops: tuple[list, list] = ([], [])
            for i, variant in enumerate(variants):
                for j, mode in enumerate(modes):
                    v = value(scenario, variant, mode, metric)
                    if v is None:
                        continue
                    x = i + (j - (len(modes) - 1) / 2) * width
                    bar = ax.bar(
                        x,
                        max(v, 0.5),
                        width=width * 0.95,
                        color=colors[variant],
                        hatch="//" if mode == "live" else None,
                        edgecolor="white" if mode == "sim" else "black",
                        label=f"{variant} ({mode})",
                    )
                    name = f"{scenario}:{variant}:{mode}:{metric}"
                    tag(bar.patches[0], name, variant)
                    low, high = (
                        value(scenario, variant, mode, metric, "min"),
                        value(scenario, variant, mode, metric, "max"),
                    )
                    if low is not None and high is not None and high > low:
                        range_bars(
                            ax,
                            [x],
                            [max(v, 0.5)],
                            yerr=[[max(v, 0.5) - max(low, 0.5)], [max(high, 0.5) - max(v, 0.5)]],
                            series=name,
                            color="#222222",
                            elinewidth=0.8,
                            capsize=2,
                        )
                    series.append(name)
                    missed = value(scenario, variant, mode, "missed_invalidations")
                    if row == 0 and missed:
                        notes.append(ax.text(x, max(v, 0.5), f"{missed:g}\nmissed", fontsize=6.5, ha="center"))
                        tops[0].append(x)
                        tops[1].append(max(v, 0.5))
            ax.set_yscale("log")
            tallest = max([b.get_height() for b in ax.patches] or [1.0])
            ax.set_ylim(0.3, tallest * (60 if row == 0 else 3))  # room above the bars for the rotated "missed" notes
            ax.set_xticks(range(len(variants)), variants, rotation=40, ha="right", fontsize=8)
            if row == 0:
                ax.set_title(scenario)
            if col == 0:
                ax.set_ylabel(label)
            ax.grid(axis="y", alpha=0.3)
            place_labels(ax, notes, tops, first_angle=90)
    return finish(
        fig,
        out_dir,
        "invalidation-staleness-cost",
        "invalidation",
        runs,
        series,
        title="Cross-process cache invalidation: stale reads against their cost",
        subtitle=f"bars: {spread_text(data['n'], spread='whiskers: min–max where the seeds differ')}; log scales, bars at the floor are 0; hatched = live (real processes, SQLite WAL)",
        legend=right_legend(fig, axes[0][0], frameon=False),
    )
