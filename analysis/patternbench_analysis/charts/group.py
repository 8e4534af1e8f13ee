"""Group chart: what each fan-out strategy costs, per scenario (bench-group).

One panel per scenario (login, login-per-movie, flaky, heavy-tail): the x axis is the flows' p99
end-to-end latency (`latency_p99_ms`), the y axis the service time spent after a flow had already
failed (`wasted_work_ms`, what cancellation saves); one point per variant (median over seeds,
simulated runs, min–max bars over the seeds). The label adds what a strategy holds while it waits:
worker threads blocked at peak (`threads_blocked_peak`) and frames missed (`missed_frames`), shown
only where not zero. Variants at the same point are drawn once, their label naming each.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import matplotlib.pyplot as plt

from ..results import WorkloadRun
from .common import (
    ROLES,
    Chart,
    finish,
    identical_groups,
    merged_label,
    place_labels,
    range_bars,
    scale_axis,
    seed_summary,
    spread_text,
    variant_legend,
    variant_point,
    variant_style,
)

SCENARIOS = ["login", "login-per-movie", "flaky", "heavy-tail"]
# The order of `--list`, the one registry the palette also follows (ROLES, checked against the binary).
VARIANTS = ROLES["group"]
X, Y = "latency_p99_ms", "wasted_work_ms"


def holds(stats, scenario: str, variant: str) -> tuple[str, ...]:
    """What a strategy holds while it waits, for its label: threads blocked at peak and frames
    missed (medians over the seeds), each only where not zero."""
    notes = []
    blocked = stats["median"].get((scenario, variant, "threads_blocked_peak"), 0)
    missed = stats["median"].get((scenario, variant, "missed_frames"), 0)
    if blocked:
        notes.append(f"{blocked:.0f} thr blocked")
    if missed:
        notes.append(f"{missed:.0f} frames missed")
    return tuple(notes)


def cost(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    import pandas as pd

    table = pd.concat([r.table for r in runs], ignore_index=True)
    table = table[table["mode"] == "sim"]
    scenarios = [s for s in SCENARIOS if s in set(table["scenario"])]
    if table.empty or not scenarios:
        return None
    stats = seed_summary(table, ["scenario", "variant", "metric"])
    found = set(table["variant"])
    variants = [v for v in VARIANTS if v in found] + sorted(found - set(VARIANTS))
    styles = variant_style(variants, "group")
    columns = min(2, len(scenarios))
    rows = (len(scenarios) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.4 * columns + 2.6, 3.9 * rows + 1.3), squeeze=False)
    for ax in list(axes.flat)[len(scenarios) :]:
        ax.set_visible(False)
    series = []
    log_panels = []
    for ax, scenario in zip(axes.flat, scenarios, strict=False):
        cells = {}
        for variant in variants:
            if (scenario, variant, X) in stats.index and (scenario, variant, Y) in stats.index:
                cells[variant] = stats.loc[[(scenario, variant, X), (scenario, variant, Y)]]
        held = {v: holds(stats, scenario, v) for v in cells}
        labels, xs, ys = [], [], []
        # one point for variants alike in everything it shows: both axes, their ranges and the label
        alike = {
            v: [*c[["median", "min", "max"]].to_numpy().ravel(), zlib.crc32("|".join(held[v]).encode())]
            for v, c in cells.items()
        }
        for group in identical_groups(alike):
            variant = group[0]
            x, y = (float(v) for v in cells[variant]["median"])
            style = styles[variant]
            variant_point(ax, x, y, style, variant, f"{scenario}:{variant}", size=55)
            (low_x, low_y), (high_x, high_y) = cells[variant]["min"], cells[variant]["max"]
            range_bars(
                ax,
                [x],
                [y],
                xerr=[[max(x - low_x, 0)], [max(high_x - x, 0)]],
                yerr=[[max(y - low_y, 0)], [max(high_y - y, 0)]],
                series=f"{scenario}:{variant}",
                color=style["color"],
                elinewidth=0.8,
                capsize=2,
                alpha=0.7,
            )
            xs.append(x)
            ys.append(y)
            series += [f"{scenario}:{v}" for v in group]
            notes = list(held[variant])
            if len(group) > 1:  # drawn once: the label names every variant at this point
                notes.insert(0, merged_label(group))
            if notes:
                labels.append(ax.text(x, y, ", ".join(notes), fontsize=7, color=style["color"]))
        ax.set_title(scenario)
        shown = pd.concat(list(cells.values())) if cells else pd.DataFrame(columns=["median", "min", "max"])
        log_x = scale_axis(
            ax,
            "x",
            shown.loc[shown.index.get_level_values("metric") == X, ["median", "min", "max"]].to_numpy().ravel(),
            "p99 end-to-end latency (ms)",
        )
        log_y = scale_axis(
            ax,
            "y",
            shown.loc[shown.index.get_level_values("metric") == Y, ["median", "min", "max"]].to_numpy().ravel(),
            "work after a failure (ms)",
        )
        if log_x or log_y:
            log_panels.append(scenario)
        ax.grid(True, alpha=0.3)
        if not log_x:
            ax.margins(x=0.15)
        if not log_y:
            ax.margins(y=0.3)
        place_labels(ax, labels, (xs, ys))
    counts = stats.loc[stats.index.get_level_values("metric") == X, "n"]
    scales = f"log axes in {', '.join(log_panels)} (values spanning over 20×)" if log_panels else "linear axes"
    return finish(
        fig,
        out_dir,
        "group-cost",
        "group",
        runs,
        series,
        title="bench-group: tail latency against work wasted after a failure",
        subtitle=f"simulated flows, points: {spread_text(counts)}; lower-left is better; {scales}; "
        "labels: what a strategy holds while it waits",
        legend=variant_legend(fig, styles, title="variant"),
    )
