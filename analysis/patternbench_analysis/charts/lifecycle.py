"""Lifecycle chart: what each strategy loses, how often the OS kills it, and what sync achieves.

One column per scenario (sim). Rows: acknowledged changes lost (log scale, 0 drawn at the floor,
the corrupt launches written on the bar), crash-free sessions (%), background sync success (%).
Medians over seeds. When the folders hold a live run, a last column shows kill-during-save: corrupt
launches per durability strategy against the kills that landed inside a save (sums over seeds).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from ..results import WorkloadRun
from .common import Chart, color_map, finish, log_ticks, range_bars, spread_text, tag

VARIANT_ORDER = ["naive", "article", "signal", "ours", "article-no-retry"]
ROWS = [
    ("acked_lost", "acked changes lost"),
    ("crash_free_sessions_pct", "crash-free sessions (%)"),
    ("sync_success_pct", "refresh sync success (%)"),
]
LIVE = "kill-during-save"
DURABILITY_ORDER = ["in-place", "rename", "rename-fsync", "sqlite-wal"]


def medians(runs: list[WorkloadRun]) -> pd.DataFrame:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    sim = table[(table["scenario"] != LIVE) & table["metric"].isin([m for m, _ in ROWS] + ["corrupt_launches"])]
    grouped = sim.groupby(["scenario", "variant", "metric"], sort=False)["value"]
    return pd.DataFrame(
        {"value": grouped.median(), "min": grouped.min(), "max": grouped.max(), "n": grouped.count()}
    ).reset_index()


def live_sums(runs: list[WorkloadRun]) -> pd.DataFrame:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    live = table[table["scenario"] == LIVE]
    return live.groupby(["variant", "metric"], sort=False)["value"].sum().reset_index()


def outcomes(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    data = medians(runs)
    live = live_sums(runs)
    if data.empty and live.empty:
        return None
    scenarios = list(dict.fromkeys(data["scenario"]))
    present = set(data["variant"])
    variants = [v for v in VARIANT_ORDER if v in present] + sorted(present - set(VARIANT_ORDER))
    colors = color_map(VARIANT_ORDER + sorted(present - set(VARIANT_ORDER)), "lifecycle")
    columns = len(scenarios) + (1 if not live.empty else 0)
    fig, axes = plt.subplots(len(ROWS), max(1, columns), figsize=(3.3 * max(1, columns) + 1.6, 8.0), squeeze=False)
    series: list[str] = []

    def value(scenario, variant, metric, column="value"):
        hit = data[(data.scenario == scenario) & (data.variant == variant) & (data.metric == metric)]
        return None if hit.empty else float(hit[column].iloc[0])

    for col, scenario in enumerate(scenarios):
        for row, (metric, label) in enumerate(ROWS):
            ax = axes[row][col]
            for i, variant in enumerate(variants):
                v = value(scenario, variant, metric)
                if v is None or v != v:  # missing or NaN (no refresh window delivered)
                    continue
                shown = max(v, 0.5) if row == 0 else v
                bar = ax.bar(i, shown, width=0.8, color=colors[variant], label=variant)
                name = f"{scenario}:{variant}:{metric}"
                tag(bar.patches[0], name, variant)
                low, high = value(scenario, variant, metric, "min"), value(scenario, variant, metric, "max")
                if low is not None and high is not None and high > low:
                    floor = 0.5 if row == 0 else float("-inf")
                    range_bars(
                        ax,
                        [i],
                        [shown],
                        yerr=[[shown - max(low, floor)], [max(high, floor) - shown]],
                        series=name,
                        color="#222222",
                        elinewidth=0.8,
                        capsize=2,
                    )
                series.append(name)
                corrupt = value(scenario, variant, "corrupt_launches")
                if row == 0 and corrupt:
                    ax.annotate(
                        f"{corrupt:g} torn",
                        (i, shown),
                        ha="center",
                        va="bottom",
                        fontsize=7,
                        xytext=(0, 2),
                        textcoords="offset points",
                    )
            if row == 0:
                ax.set_yscale("log")
                highest = data[(data.scenario == scenario) & (data.metric == metric)]["max"].max()
                top = max([b.get_height() for b in ax.patches] + [float(highest), 1.0]) * 12  # room for the notes
                ax.set_ylim(0.3, top)
                log_ticks(ax.yaxis, 0.3, top)
                ax.set_title(scenario)
            else:
                ax.set_ylim(0, 105)
            ax.set_xticks(range(len(variants)), variants, rotation=40, ha="right", fontsize=8)
            if col == 0:
                ax.set_ylabel(label + (" (log)" if row == 0 else ""))
            ax.grid(axis="y", alpha=0.3)
    if not live.empty:
        col = len(scenarios)
        durabilities = [d for d in DURABILITY_ORDER if d in set(live["variant"])]

        def total(d, metric):
            hit = live[(live.variant == d) & (live.metric == metric)]
            return 0.0 if hit.empty else float(hit["value"].iloc[0])

        ax = axes[0][col]
        for i, d in enumerate(durabilities):
            inside = total(d, "kills_inside_save")
            corrupt = total(d, "corrupt_launches")
            ax.bar(i, inside, width=0.8, color="#cccccc", label="kills inside a save" if i == 0 else None)
            bar = ax.bar(i, corrupt, width=0.5, color="#333333", label="corrupt launches" if i == 0 else None)
            name = f"{LIVE}:{d}:corrupt_launches"
            tag(bar.patches[0], name)
            series.append(name)
            ax.annotate(
                f"{corrupt:g}/{inside:g}",
                (i, max(inside, corrupt)),
                ha="center",
                va="bottom",
                fontsize=7,
                xytext=(0, 2),
                textcoords="offset points",
            )
        ax.set_xticks(range(len(durabilities)), durabilities, rotation=60, ha="right", fontsize=8)
        ax.set_title(f"{LIVE} (live)")
        ax.set_ylabel("count (sum over seeds)")
        ax.set_ylim(0, max(1.0, float(live[live.metric == "kills_inside_save"]["value"].max())) * 2.2)
        ax.legend(fontsize=7, frameon=False, loc="upper left", ncols=1)
        ax.grid(axis="y", alpha=0.3)
        for row in range(1, len(ROWS)):
            axes[row][col].axis("off")
    handles, labels = axes[0][0].get_legend_handles_labels()
    unique = {label: handle for label, handle in zip(labels, handles, strict=True) if label in variants}
    legend = fig.legend(unique.values(), unique.keys(), loc="center right", fontsize=8, frameon=False)
    return finish(
        fig,
        out_dir,
        "lifecycle-outcomes",
        "lifecycle",
        runs,
        series,
        title="App lifecycle under iOS's rules: loss, kills and sync",
        subtitle=f"bars: {spread_text(data['n'], spread='whiskers: min–max where the seeds differ')}; bars at the floor are 0; 'torn' = corrupt launches; live: real processes killed inside saves",
        legend=legend,
    )
