"""Readiness chart: what each launch-coordination design costs, per process context.

One panel per scenario (main-app, share-extension, nse) with a screen-less NSE last: the x axis is
the time to drain the launch's polite backlog (`polite_drain_ms`, log scale), the y axis the
frames missed once the first screen exists (`missed_frames`) — in the screen-less NSE the 25 ms
slots wasted on main-app-only blocks (`wasted_slots`) instead; one point per variant (median over
seeds, simulated runs, the first `--globals` strategy present, `eager` when it is). A stampede sits
at the left (drained at once, inside the ready turn), Signal's 25 ms chain at the right; the point's
label adds the overtakes, the order violations a design causes.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import matplotlib.ticker

from ..results import WorkloadRun
from .common import (
    Chart,
    finish,
    identical_groups,
    merged_label,
    place_labels,
    range_bars,
    right_legend,
    seed_summary,
    spread_text,
    variant_point,
    variant_style,
)

SCENARIOS = ["main-app", "share-extension", "nse"]
# Without a screen nothing can miss a frame: the NSE's panel shows wasted slots.
Y_METRIC = {"nse": "wasted_slots"}
Y_LABEL = {"missed_frames": "missed frames (count)", "wasted_slots": "wasted polite slots (count)"}
VARIANTS = ["signal", "signal-2018", "signal-2021-lifo", "article-lightweight", "intent-orchestrator", "frame-aware"]


def launch(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    import pandas as pd

    table = pd.concat([r.table for r in runs], ignore_index=True)
    table = table[table["mode"] == "sim"]
    if table.empty or "globals" not in table:
        return None
    present = list(dict.fromkeys(table["globals"]))
    globals_ = "eager" if "eager" in present else present[0]
    table = table[table["globals"] == globals_]
    scenarios = [s for s in SCENARIOS if s in set(table["scenario"])]
    if not scenarios:
        return None
    stats = seed_summary(table, ["scenario", "variant", "metric"])
    medians = stats["median"]
    found = set(table["variant"])
    variants = [v for v in VARIANTS if v in found] + sorted(found - set(VARIANTS))
    styles = variant_style(variants, "readiness")
    fig, axes = plt.subplots(1, len(scenarios), figsize=(4.6 * len(scenarios) + 2.4, 4.8), squeeze=False)
    series = []
    for ax, scenario in zip(axes[0], scenarios, strict=True):
        at: dict[tuple[float, float], list[tuple[str, float]]] = {}  # variants drawn at one point share one label
        drawn: dict[str, tuple[float, ...]] = {}  # what each variant's point, bars and label show
        for variant in variants:
            try:
                x = medians[(scenario, variant, "polite_drain_ms")]
                y = medians[(scenario, variant, Y_METRIC.get(scenario, "missed_frames"))]
            except KeyError:
                continue
            overtakes = medians.get((scenario, variant, "overtakes"), 0)
            style = styles[variant]
            variant_point(ax, max(x, 1.0), y, style, variant, f"{scenario}:{variant}", size=60)
            y_metric = Y_METRIC.get(scenario, "missed_frames")
            range_bars(
                ax,
                [max(x, 1.0)],
                [y],
                xerr=[
                    [max(x, 1.0) - max(stats["min"][(scenario, variant, "polite_drain_ms")], 1.0)],
                    [max(stats["max"][(scenario, variant, "polite_drain_ms")], 1.0) - max(x, 1.0)],
                ],
                yerr=[
                    [y - stats["min"][(scenario, variant, y_metric)]],
                    [stats["max"][(scenario, variant, y_metric)] - y],
                ],
                series=f"{scenario}:{variant}",
                color=style["color"],
                elinewidth=0.8,
                capsize=2,
                alpha=0.7,
            )
            series.append(f"{scenario}:{variant}")
            drawn[variant] = (
                x,
                y,
                *(stats[k][(scenario, variant, m)] for k in ("min", "max") for m in ("polite_drain_ms", y_metric)),
                overtakes,
            )
            near = next((key for key in at if abs(key[0] / max(x, 1.0) - 1) < 0.06 and abs(key[1] - y) <= 0.5), None)
            at.setdefault(near or (max(x, 1.0), y), []).append((variant, overtakes))
        texts = []
        for (x, y), here in at.items():
            if len(here) == 1:  # the marker and the legend name it
                text = f"{here[0][1]:.0f} overtakes"
            else:  # markers drawn over one another: name every variant, identical ones as one
                overtakes_of = dict(here)
                groups = identical_groups({v: drawn[v] for v, _ in here})
                text = "\n".join(f"{merged_label(g)}: {overtakes_of[g[0]]:.0f} overtakes" for g in groups)
            texts.append(ax.text(x, y, text, fontsize=7, color="#444444", linespacing=1.1))
        ax.set_xscale("log")
        ax.set_title(scenario)
        ax.set_xlabel("polite backlog drained after (ms, log)")
        ax.set_ylabel(Y_LABEL[Y_METRIC.get(scenario, "missed_frames")])
        ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
        ax.margins(x=0.15, y=0.25)
        fig.canvas.draw()
        place_labels(ax, texts, ([p[0] for p in at], [p[1] for p in at]))
    return finish(
        fig,
        out_dir,
        "readiness-launch",
        "readiness",
        runs,
        series,
        title="bench-readiness: backlog drain against missed frames",
        subtitle=f"simulated launches, points: {spread_text(stats['n'])}, globals {globals_}; fewer frames missed and a sooner drain are both better",
        legend=right_legend(fig, axes[0][0], title="variant"),
    )
