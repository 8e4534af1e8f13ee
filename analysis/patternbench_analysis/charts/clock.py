"""Clock chart: a heat map of timing error per scenario × client × clock source.

Each client that reports a time error gets a panel (rows: skew scenarios, columns: clock
sources); the colour is the error on one log scale in µs, and a red frame marks the cells where
the client measured negative durations.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm
from matplotlib.patches import Patch, Rectangle

from ..results import WorkloadRun
from .common import Chart, layout, save, tag

SOURCE_ORDER = ["date", "realtime", "monotonic", "monotonic-raw", "boottime"]
# (metric, factor to µs): the first a client reports is its error.
ERROR_METRICS = [("max_abs_error_us", 1.0), ("timeout_error_ms", 1000.0)]
NEGATIVE = "negative_durations"


def human_us(us: float) -> str:
    if us == 0:
        return "0"
    for limit, div, unit in ((1e3, 1, "µs"), (1e6, 1e3, "ms"), (3600e6, 1e6, "s"), (86400e6 * 2, 3600e6, "h")):
        if us < limit * 0.9995:
            return f"{us / div:.3g} {unit}"
    return f"{us / 86400e6:.3g} d"


def error_table(runs: list[WorkloadRun]) -> tuple[pd.DataFrame, list[str]]:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    if "client" not in table:
        table["client"] = ""
    rows, skipped = [], []
    for client, sub in table.groupby("client", sort=False):
        chosen = next(((m, f) for m, f in ERROR_METRICS if (sub["metric"] == m).any()), None)
        if chosen is None:
            skipped.append(client)
            continue
        metric, factor = chosen
        grouped = sub[sub["metric"] == metric].groupby(["scenario", "variant"])["value"]
        err = grouped.median() * factor
        neg = sub[sub["metric"] == NEGATIVE].groupby(["scenario", "variant"])["value"].max()
        frame = pd.DataFrame(
            {
                "error_us": err,
                "error_min_us": grouped.min() * factor,
                "error_max_us": grouped.max() * factor,
                "n": grouped.count(),
                "negative": neg,
            }
        ).reset_index()
        frame["client"], frame["metric"] = client, metric
        rows.append(frame)
    if not rows:
        return pd.DataFrame(
            columns=[
                "client",
                "scenario",
                "variant",
                "error_us",
                "error_min_us",
                "error_max_us",
                "n",
                "negative",
                "metric",
            ]
        ), skipped
    return pd.concat(rows, ignore_index=True), skipped


def heatmap(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    data, skipped = error_table(runs)
    if data.empty:
        return None
    clients = list(dict.fromkeys(data["client"]))
    scenarios = list(dict.fromkeys(s for r in runs for s in r.table["scenario"] if s in set(data["scenario"])))
    present = set(data["variant"])
    sources = [s for s in SOURCE_ORDER if s in present] + sorted(present - set(SOURCE_ORDER))
    positive = data["error_us"][data["error_us"] > 0]
    norm = LogNorm(
        vmin=max(positive.min(), 1e-3) if len(positive) else 1e-3,
        vmax=max(positive.max(), 1.0) if len(positive) else 1.0,
    )
    cmap = plt.get_cmap("magma_r").with_extremes(bad="#f2f2f2")
    columns = min(3, len(clients))
    rows = (len(clients) + columns - 1) // columns
    panel_w, panel_h = 0.8 * len(sources) + 0.4, 0.36 * len(scenarios) + 1.3
    fig, axes = plt.subplots(
        rows, columns, figsize=(panel_w * columns + 3.4, panel_h * rows + 1.3), squeeze=False, sharey=True
    )
    image = None
    series = []
    for ax, client in zip(axes.flat, clients, strict=False):
        sub = data[data["client"] == client]
        grid = np.full((len(scenarios), len(sources)), np.nan)
        negative = np.zeros_like(grid)
        ranges: dict[tuple[int, int], str] = {}
        for _, r in sub.iterrows():
            i, j = scenarios.index(r["scenario"]), sources.index(r["variant"])
            grid[i, j] = r["error_us"]
            if pd.notna(r["error_min_us"]) and r["error_min_us"] != r["error_max_us"]:
                ranges[(i, j)] = f"{human_us(r['error_min_us'])}–{human_us(r['error_max_us'])}"
            negative[i, j] = r["negative"] if pd.notna(r["negative"]) else 0
        masked = np.ma.masked_where(~(grid > 0), grid)
        image = ax.imshow(masked, cmap=cmap, norm=norm, aspect="auto")
        tag(image, f"client:{client}")
        series.append(client)
        for i in range(len(scenarios)):
            for j in range(len(sources)):
                value = grid[i, j]
                if np.isnan(value):
                    text, color = "n/a", "#888"
                else:
                    text = human_us(value)
                    if (i, j) in ranges:
                        text += f"\n({ranges[(i, j)]})"
                    color = "white" if value > 0 and norm(value) > 0.55 else "black"
                if negative[i, j] > 0:
                    text += f"\n{int(negative[i, j])} neg."
                    frame = Rectangle((j - 0.46, i - 0.44), 0.92, 0.88, fill=False, edgecolor="#00b3ff", linewidth=2.0)
                    frame.set_gid(f"negative:{client}:{scenarios[i]}:{sources[j]}")
                    ax.add_patch(frame)
                ax.text(j, i, text, ha="center", va="center", fontsize=6.3, color=color, linespacing=0.95)
        metric = sub["metric"].iloc[0]
        ax.set_title(f"client {client} ({metric})", fontsize=8.5)
        ax.set_xticks(range(len(sources)), sources, rotation=30, ha="right", fontsize=7.5)
        ax.set_yticks(range(len(scenarios)), scenarios, fontsize=7.5)
        ax.set_xlabel("clock source")
    for ax in list(axes.flat)[len(clients) :]:
        ax.set_visible(False)
    for row in axes:
        row[0].set_ylabel("skew scenario")
    legend_handles = [
        Patch(facecolor="none", edgecolor="#00b3ff", linewidth=2, label="negative durations measured (count)"),
        Patch(facecolor="#f2f2f2", edgecolor="#ccc", label="no error (0)"),
    ]
    legend = fig.legend(handles=legend_handles, loc="upper right", fontsize=7.5, ncol=2)
    counts = sorted({int(n) for n in data["n"].dropna()})
    note = (
        f"error: max_abs_error_us, or timeout_error_ms in µs; median over n={'/'.join(map(str, counts))} seeds, "
        "(min–max) under it where the seeds differ; colour scale logarithmic"
    )
    if skipped:
        note += f"; clients without a time error: {', '.join(skipped)}"
    layout(fig, "Clocks: timing error per scenario × client × clock source", note, top_legend=legend)
    width = fig.get_figwidth()
    fig.subplots_adjust(right=1 - 1.3 / width)
    top_axis = max(ax.get_position().y1 for ax in axes.flat if ax.get_visible())
    bottom_axis = min(ax.get_position().y0 for ax in axes.flat if ax.get_visible())
    cax = fig.add_axes((1 - 1.05 / width, bottom_axis, 0.16 / width, top_axis - bottom_axis))
    assert image is not None, "data is not empty, so at least one client drew its panel"
    bar = fig.colorbar(image, cax=cax)
    bar.set_label("timing error (µs, log scale; grey = 0)")
    title = "Clocks: timing error per scenario × client × clock source"
    return save(fig, out_dir, "clock-error-heatmap", title, "clock", runs, series)
