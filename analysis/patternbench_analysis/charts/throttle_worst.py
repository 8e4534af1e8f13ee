"""The second around each top policy's worst moment, per throttle scenario: why its p99 is what it is.

A run's `--events` hold bench-throttle's update rows (when each update started on the main thread, its
rows, whether it was a reset, its cost and how late its frame was), not each commit's latency. The
commits an update shows arrived after the previous update started, so `wait + cost + lateness` (wait:
the time since the previous update started) bounds the latency of the commits it showed: the update
with the largest bound is where that policy's worst latency can be, and the second around it is drawn
with the wait shaded, each update a bar as wide as its cost and as high as its rows, resets in red and
late frames marked.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.collections import PatchCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from ..results import WorkloadRun
from .common import Chart, color_map, layout, save, slug, tag
from .throttle import P99, POLICY_ORDER, ordered, scenario_updates

TOP = 3  # policies drawn per scenario: the best by median p99
WINDOW_S = 1.0
RESET = "#111111"  # not red: a policy's own colour may be red
LATE = "#666666"  # neutral: no variant of the palette is a pure grey


def top_policies(runs: list[WorkloadRun], scenario: str, mode: str, among: set[str]) -> list[tuple[str, float]]:
    """The TOP policies of a scenario by median p99 over seeds (lowest first), among those with events."""
    tables = [r.table for r in runs]
    table = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
    if table.empty:
        return []
    rows = table[
        (table["scenario"] == scenario)
        & (table["mode"] == mode)
        & (table["metric"] == P99)
        & table["variant"].isin(among)
    ]
    medians = rows.groupby("variant")["value"].median().sort_values(kind="stable")
    return [(v, float(p)) for v, p in medians.items()][:TOP]


def worst_update(updates: pd.DataFrame) -> tuple[pd.Series, float] | None:
    """The update with the largest wait + cost + lateness bound, and the previous update's start (s)."""
    if updates.empty:
        return None
    u = updates.sort_values("time_ms").reset_index(drop=True)
    previous = u["time_ms"].shift(1).fillna(0.0)
    bound = (u["time_ms"] - previous) + u["cost_ms"] + u["frame_lateness_ms"].fillna(0.0)
    i = int(bound.idxmax())
    return u.loc[i], float(previous.iloc[i]) / 1000.0


def worst_seconds(
    runs: list[WorkloadRun], events: pd.DataFrame, out_dir: Path, max_scenarios: int | None = None
) -> list[Chart]:
    charts = []
    for scenario, sub in scenario_updates(events, max_scenarios):
        mode = "live" if (sub["mode"] == "live").any() else "sim"
        sub = sub[(sub["mode"] == mode) & (sub["seed"] == sub["seed"].min())]
        seed = int(sub["seed"].iloc[0])
        top = top_policies(runs, scenario, mode, set(sub["variant"]))
        if not top:
            continue
        colors = color_map(ordered(POLICY_ORDER + [p for p, _ in top]), "throttle")
        fig, axes = plt.subplots(len(top), 1, figsize=(10, 1.55 * len(top) + 1.5), squeeze=False)
        drawn = []
        for ax, (policy, p99) in zip(axes[:, 0], top, strict=True):
            updates = sub[sub["variant"] == policy]
            found = worst_update(updates)
            if found is None:
                continue
            worst, previous_s = found
            t = float(worst["time_ms"]) / 1000.0
            start = max(0.0, t - WINDOW_S / 2)
            end = start + WINDOW_S
            window = updates[(updates["time_ms"] / 1000.0 >= start) & (updates["time_ms"] / 1000.0 <= end)]
            ax.axvspan(previous_s, t, color="#bbbbbb", alpha=0.35, linewidth=0)
            for reset, color in ((False, colors[policy]), (True, RESET)):
                part = window[(window["reset"] != 0) == reset]
                if len(part):
                    # One collection per kind, so the SVG names it (a bar container has no id of its own).
                    rects = [
                        Rectangle((x / 1000.0, 0), max(c, 0.4) / 1000.0, r)
                        for x, c, r in zip(part["time_ms"], part["cost_ms"], part["rows"], strict=True)
                    ]
                    bars = ax.add_collection(PatchCollection(rects, facecolor=color, edgecolor=color, linewidth=0.6))
                    tag(bars, f"{scenario}/{policy}/{'resets' if reset else 'updates'}", None if reset else policy)
            late = window[window["frame_lateness_ms"].fillna(0) > 0.5]
            top_rows = max(1.0, float(window["rows"].max() if len(window) else 1))
            if len(late):
                marks = ax.plot(late["time_ms"] / 1000.0, [top_rows * 1.12] * len(late), "v", color=LATE, markersize=5)[
                    0
                ]
                tag(marks, f"{scenario}/{policy}/late")
            lateness = float(worst["frame_lateness_ms"]) if pd.notna(worst["frame_lateness_ms"]) else 0.0
            since = "the previous update" if (updates["time_ms"] < worst["time_ms"]).any() else "the run began"
            ax.set_title(
                f"{policy}: worst at {t:.3f} s: waited {1000 * (t - previous_s):.0f} ms since {since}, "
                f"cost {worst['cost_ms']:.1f} ms, frame {lateness:.1f} ms late",
                loc="left",
                fontsize=8,
            )
            ax.set_xlim(start, end)
            ax.set_ylim(0, top_rows * 1.25)
            ax.set_ylabel(f"{policy}\np99 {p99:.1f} ms\nrows", fontsize=7.5)
            ax.grid(True, alpha=0.3)
            ax.tick_params(labelsize=7)
            drawn.append(policy)
        if not drawn:
            plt.close(fig)
            continue
        axes[-1, 0].set_xlabel("time (s)")
        handles = [
            Patch(color="#666666", label="update (width: cost, height: rows)"),
            Patch(color=RESET, label="reset (full reload)"),
            Patch(color="#bbbbbb", alpha=0.5, label="wait since the previous update"),
            Line2D([], [], color=LATE, marker="v", linestyle="", label="frame late > 0.5 ms"),
        ]
        legend = fig.legend(handles=handles, loc="upper right", fontsize=7.5, ncol=4)
        title = f"Throttling: the second around the worst moment, {scenario} (seed {seed}, {mode})"
        subtitle = (
            f"the {len(drawn)} best policies by median p99; each at its update with the largest "
            "wait + cost + frame lateness (the bound on the latency of the commits it showed)"
        )
        layout(fig, title, subtitle, top_legend=legend)
        run_ids = set(sub["run_id"])
        selected = [r for r in runs if run_ids & set(r.run_ids)] or runs
        charts.append(save(fig, out_dir, f"throttle-worst-second-{slug(scenario)}", title, "throttle", selected, drawn))
    return charts
