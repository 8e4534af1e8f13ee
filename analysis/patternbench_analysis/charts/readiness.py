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
from .common import Chart, color_map, layout, save, tag

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
    medians = table.groupby(["scenario", "variant", "metric"])["value"].median()
    found = set(table["variant"])
    variants = [v for v in VARIANTS if v in found] + sorted(found - set(VARIANTS))
    colors = color_map(variants)
    fig, axes = plt.subplots(1, len(scenarios), figsize=(4.2 * len(scenarios) + 2.4, 4.2), squeeze=False)
    series = []
    for ax, scenario in zip(axes[0], scenarios):
        placed: list[tuple[float, float]] = []
        for variant in variants:
            try:
                x = medians[(scenario, variant, "polite_drain_ms")]
                y = medians[(scenario, variant, Y_METRIC.get(scenario, "missed_frames"))]
            except KeyError:
                continue
            overtakes = medians.get((scenario, variant, "overtakes"), 0)
            point = ax.scatter([max(x, 1.0)], [y], s=60, color=colors[variant], label=variant, zorder=3)
            tag(point, f"{scenario}:{variant}")
            series.append(f"{scenario}:{variant}")
            offset = 4 + 9 * sum(1 for other in placed if abs(other[0] / max(x, 1.0) - 1) < 0.15 and abs(other[1] - y) < 0.6)
            placed.append((max(x, 1.0), y))
            ax.annotate(f"{overtakes:.0f} overtakes", (max(x, 1.0), y), textcoords="offset points", xytext=(5, offset),
                        fontsize=7, color="#444444")
        ax.set_xscale("log")
        ax.set_title(scenario)
        ax.set_xlabel("polite backlog drained after (ms, log)")
        ax.set_ylabel(Y_LABEL[Y_METRIC.get(scenario, "missed_frames")])
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    legend = fig.legend(handles, labels, loc="center right", title="variant", fontsize=8)
    title = "bench-readiness: backlog drain against missed frames"
    layout(fig, title, f"simulated launches, median over seeds, globals {globals_}; fewer frames missed and a sooner drain are both better",
           right_legend=legend)
    return save(fig, out_dir, "readiness-launch", title, "readiness", runs, series)
