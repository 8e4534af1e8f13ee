"""Group chart: what each fan-out strategy costs, per scenario (bench-group).

One panel per scenario (login, login-per-movie, flaky, heavy-tail): the x axis is the flows' p99
end-to-end latency (`latency_p99_ms`), the y axis the service time spent after a flow had already
failed (`wasted_work_ms`, what cancellation saves); one point per variant (median over seeds,
simulated runs). The label adds what a strategy holds while it waits: worker threads blocked at
peak (`threads_blocked_peak`) and frames missed (`missed_frames`), shown only where not zero.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt

from ..results import WorkloadRun
from .common import ROLES, Chart, finish, place_labels, right_legend, variant_point, variant_style

SCENARIOS = ["login", "login-per-movie", "flaky", "heavy-tail"]
# The order of `--list`, the one registry the palette also follows (ROLES, checked against the binary).
VARIANTS = ROLES["group"]


def cost(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    import pandas as pd

    table = pd.concat([r.table for r in runs], ignore_index=True)
    table = table[table["mode"] == "sim"]
    scenarios = [s for s in SCENARIOS if s in set(table["scenario"])]
    if table.empty or not scenarios:
        return None
    medians = table.groupby(["scenario", "variant", "metric"])["value"].median()
    found = set(table["variant"])
    variants = [v for v in VARIANTS if v in found] + sorted(found - set(VARIANTS))
    styles = variant_style(variants, "group")
    columns = min(2, len(scenarios))
    rows = (len(scenarios) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.4 * columns + 2.6, 3.9 * rows + 1.3), squeeze=False)
    for ax in list(axes.flat)[len(scenarios) :]:
        ax.set_visible(False)
    series = []
    for ax, scenario in zip(axes.flat, scenarios, strict=False):
        labels, xs, ys = [], [], []
        for variant in variants:
            try:
                x = medians[(scenario, variant, "latency_p99_ms")]
                y = medians[(scenario, variant, "wasted_work_ms")]
            except KeyError:
                continue
            style = styles[variant]
            variant_point(ax, x, y, style, variant, f"{scenario}:{variant}", size=55)
            xs.append(x)
            ys.append(y)
            series.append(f"{scenario}:{variant}")
            notes = []
            blocked = medians.get((scenario, variant, "threads_blocked_peak"), 0)
            missed = medians.get((scenario, variant, "missed_frames"), 0)
            if blocked:
                notes.append(f"{blocked:.0f} thr blocked")
            if missed:
                notes.append(f"{missed:.0f} frames missed")
            if notes:
                labels.append(ax.text(x, y, ", ".join(notes), fontsize=7, color=style["color"]))
        ax.set_title(scenario)
        ax.set_xlabel("p99 end-to-end latency (ms)")
        ax.set_ylabel("work after a failure (ms)")
        ax.grid(True, alpha=0.3)
        ax.margins(x=0.15, y=0.3)
        ax.figure.canvas.draw()  # axis limits settled before the labels are placed
        place_labels(ax, labels, (xs, ys))
    return finish(
        fig,
        out_dir,
        "group-cost",
        "group",
        runs,
        series,
        title="bench-group: tail latency against work wasted after a failure",
        subtitle="simulated flows, median over seeds; lower-left is better; labels: what a strategy holds while it waits",
        legend=right_legend(fig, axes[0][0], title="variant"),
    )
