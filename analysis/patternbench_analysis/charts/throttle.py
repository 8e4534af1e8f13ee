"""Throttling charts: the latency-vs-jank frontier per scenario, and the per-update timeline."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.lines import Line2D

from ..results import WorkloadRun
from .common import (
    Chart,
    color_map,
    every_seed_zero,
    identical_groups,
    layout,
    marker_map,
    merged_label,
    min_max_lengths,
    place_labels,
    range_bars,
    save,
    scale_axis,
    slug,
    spread_text,
    tag,
)

P99, HITCH = "latency_p99_ms", "hitch_ms_per_s"
HITCH_LABEL = "hitch ratio (ms of hitch per s)"
# A policy's curve in a panel: drawn once for every policy whose curve is the same (medians and ranges).
CURVE_COLUMNS = [HITCH, P99, f"{HITCH}_min", f"{HITCH}_max", f"{P99}_min", f"{P99}_max"]

# The one parameter each policy is tuned by (bench-throttle's flags); runs that differ in it form a
# sweep, drawn as a curve through the policy's points.
SWEEP_PARAMETER = {
    "fixed-rate": "fixed_interval_ms",
    "debounce-last": "debounce_ms",
    "throttle-first-last": "debounce_ms",
    "frame-budget": "max_age_ms",
}
POLICY_ORDER = [
    "immediate",
    "fixed-rate",
    "signal-adaptive",
    "signal-brief",
    "debounce-last",
    "throttle-first-last",
    "frame-budget",
]


def ordered(names) -> list[str]:
    names = set(names)
    return [n for n in POLICY_ORDER if n in names] + sorted(names - set(POLICY_ORDER))


def frontier_points(runs: list[WorkloadRun]) -> pd.DataFrame:
    """Median p99 and hitch over seeds, per scenario, policy, mode and sweep value."""
    frames = []
    for run in runs:
        table = run.table[run.table["metric"].isin([P99, HITCH])]
        if table.empty:
            continue
        params = run.parameters_by_run()
        wide = table.pivot_table(
            index=["run_id", "scenario", "variant", "mode", "seed", "repetition"],
            columns="metric",
            values="value",
            aggfunc="first",
        ).reset_index()
        wide["sweep"] = [
            params.get(r, {}).get(SWEEP_PARAMETER.get(v, ""), None) if v in SWEEP_PARAMETER else None
            for r, v in zip(wide["run_id"], wide["variant"], strict=True)
        ]
        frames.append(wide)
    if not frames:
        return pd.DataFrame(columns=["scenario", "variant", "mode", "sweep", P99, HITCH])
    wide = pd.concat(frames, ignore_index=True)
    for column in (P99, HITCH):
        if column not in wide:
            wide[column] = float("nan")
    wide["sweep"] = wide["sweep"].astype("float64")
    grouped = wide.groupby(["scenario", "variant", "mode", "sweep"], dropna=False)[[P99, HITCH]]
    out = grouped.median()
    low, high = grouped.min(), grouped.max()
    for column in (P99, HITCH):
        out[f"{column}_min"], out[f"{column}_max"] = low[column], high[column]
    out["n"] = grouped.count()[P99]
    return out.reset_index()


def pareto_front(points: pd.DataFrame) -> pd.DataFrame:
    """The points no other point beats on both hitch and p99 (lower is better for both), by hitch."""
    ordered_points = points.sort_values([HITCH, P99])
    front, best = [], float("inf")
    for index, row in ordered_points.iterrows():
        if row[P99] < best:
            front.append(index)
            best = row[P99]
    return points.loc[front].sort_values(HITCH)


def frontier(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    points = frontier_points(runs)
    points = points.dropna(subset=[P99, HITCH])
    if points.empty:
        return None
    scenarios = list(dict.fromkeys(s for run in runs for s in run.table["scenario"] if s in set(points["scenario"])))
    policies = ordered(points["variant"].unique())
    colors = color_map(policies, "throttle")
    markers = marker_map(policies, "throttle")
    modes = sorted(points["mode"].unique())
    columns = min(3, len(scenarios))
    rows = (len(scenarios) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(max(10.5, 4.6 * columns + 3.2), 3.8 * rows + 1.1), squeeze=False)
    series = []
    log_panels: list[str] = []
    log_x: list[str] = []
    flat_panels = []
    for ax, scenario in zip(axes.flat, scenarios, strict=False):
        panel = points[points["scenario"] == scenario]
        if every_seed_zero(panel[f"{HITCH}_max"]):  # the caption says "0 hitch": every seed must show it
            series += flat_panel(ax, scenario, panel, policies, modes, colors)
            flat_panels.append(scenario)
            if ax.get_xscale() != "linear":
                log_panels.append(scenario)
            continue
        for mode in modes:
            front = pareto_front(panel[panel["mode"] == mode])
            if len(front):
                (edge,) = ax.step(
                    front[HITCH], front[P99], where="post", color="#888888", linestyle=":", linewidth=1.6, zorder=1
                )
                edge.set_gid(f"pareto:{slug(scenario)}:{mode}")
                ax.plot(
                    front[HITCH],
                    front[P99],
                    "o",
                    markersize=11,
                    markerfacecolor="none",
                    markeredgecolor="#888888",
                    zorder=1,
                )
        texts, xs, ys = [], [], []
        for mode in modes:
            cells = {
                policy: panel[(panel["variant"] == policy) & (panel["mode"] == mode)].sort_values("sweep")
                for policy in policies
            }
            cells = {policy: cell for policy, cell in cells.items() if not cell.empty}
            for group in identical_groups({p: cell[CURVE_COLUMNS].to_numpy() for p, cell in cells.items()}):
                policy, cell = group[0], cells[group[0]]
                name = merged_label(group)
                label = name if len(modes) == 1 else f"{name} ({mode})"
                xs += list(cell[HITCH])
                ys += list(cell[P99])
                (line,) = ax.plot(
                    cell[HITCH],
                    cell[P99],
                    marker=markers[policy],
                    markerfacecolor=colors[policy] if mode != "live" else "none",
                    color=colors[policy],
                    linewidth=1.4,
                    markersize=5,
                    label=label,
                )
                tag(line, f"{scenario}/{label}", policy)
                series += [f"{scenario}/{p if len(modes) == 1 else f'{p} ({mode})'}" for p in group]
                range_bars(
                    ax,
                    cell[HITCH],
                    cell[P99],
                    xerr=min_max_lengths(cell, HITCH),
                    yerr=min_max_lengths(cell, P99),
                    series=f"{scenario}/{label}",
                    color=colors[policy],
                    elinewidth=0.8,
                    capsize=2,
                    alpha=0.7,
                )
                first = cell.iloc[0]
                sweeps: dict[tuple, list[str]] = {}
                if len(cell) > 1 and policy in SWEEP_PARAMETER:
                    for _, p in cell.dropna(subset=["sweep"]).iterrows():
                        sweeps.setdefault((round(p[HITCH], 6), round(p[P99], 6)), []).append(f"{p['sweep']:g}")
                first_key = (round(first[HITCH], 6), round(first[P99], 6))
                # the policy's name at its first point, with that point's sweep values; the other values alone
                if mode != modes[0] and not sweeps:
                    continue  # the policy is named once per panel, at its first mode's point
                texts.append(
                    ax.text(
                        first[HITCH],
                        first[P99],
                        name + (f" {', '.join(sweeps.pop(first_key))} ms" if first_key in sweeps else ""),
                        fontsize=6.5,
                        color=colors[policy],
                    )
                )
                for (x, y), values in sweeps.items():
                    texts.append(ax.text(x, y, ", ".join(values) + " ms", fontsize=6.5, color=colors[policy]))
        ax.set_title(scenario)
        if scale_axis(ax, "x", panel[[HITCH, f"{HITCH}_min", f"{HITCH}_max"]].to_numpy().ravel(), HITCH_LABEL):
            log_x.append(scenario)
        else:
            right = max(1.0, float(panel[f"{HITCH}_max"].max()) * 1.12)  # hitch is never negative; keep 0 visible
            ax.set_xlim(-0.04 * right, right)
        if scale_axis(ax, "y", panel[[P99, f"{P99}_min", f"{P99}_max"]].to_numpy().ravel(), "p99 latency (ms)"):
            log_panels.append(scenario)
        ax.grid(True, alpha=0.3)
        place_labels(ax, texts, (xs, ys))
    for ax in list(axes.flat)[len(scenarios) :]:
        ax.set_visible(False)
    handles = [Line2D([], [], color=colors[p], marker=markers[p], label=p) for p in policies]
    if "live" in modes:
        handles.append(Line2D([], [], color="#444", marker="o", linestyle="", label="filled: sim mode (virtual time)"))
        handles.append(
            Line2D([], [], color="#444", marker="o", markerfacecolor="none", linestyle="", label="hollow: live mode")
        )
    if any(len(points[(points["variant"] == p)]["sweep"].dropna().unique()) > 1 for p in SWEEP_PARAMETER):
        handles.append(Line2D([], [], color="#444", label="curve: parameter sweep (labels: value)"))
    if len(flat_panels) < len(scenarios):
        handles.append(
            Line2D(
                [],
                [],
                color="#888888",
                linestyle=":",
                marker="o",
                markerfacecolor="none",
                markersize=9,
                label="Pareto front (no point is better on both)",
            )
        )
    legend = fig.legend(handles=handles, title="policy", loc="center right", fontsize=8)
    title = (
        "Throttling: p99 latency per policy (no policy hitches)"
        if len(flat_panels) == len(scenarios)
        else "Throttling: p99 latency vs hitch ratio per policy"
    )
    parts = [f"points: {spread_text(points['n'])}"]
    if len(flat_panels) < len(scenarios):
        parts.append("lower-left is better")
    scales = [
        f"{axis} axis logarithmic in {', '.join(names)}"
        for axis, names in (("p99", log_panels), ("hitch", log_x))
        if names
    ]
    parts.append(", ".join(scales) + ", linear elsewhere" if scales else "every axis linear")
    subtitle = "; ".join(parts)
    if flat_panels:
        subtitle += (
            f"\nno policy hitches in any seed in {', '.join(flat_panels)}: "
            "drawn as p99 per policy (one row each, best at the top)"
        )
    layout(fig, title, subtitle, right_legend=legend)
    return save(fig, out_dir, "throttle-frontier", title, "throttle", runs, series)


def update_rows(events: pd.DataFrame) -> pd.DataFrame:
    """bench-throttle's update rows of an `--events` table (which may hold other workloads' rows)."""
    if "event" not in events:
        return events
    return events[(events["workload"] == "throttle") & (events["event"] == "update")]


def flat_panel(ax, scenario: str, panel: pd.DataFrame, policies: list[str], modes: list[str], colors) -> list[str]:
    """A scenario where every policy has zero hitch: a frontier would stack every point (and label)
    in one column at x = 0, so each policy gets its own row instead, p99 along x, best on top."""
    rows = []
    for policy in policies:
        for mode in modes:
            cell = panel[(panel["variant"] == policy) & (panel["mode"] == mode)].sort_values("sweep")
            if not cell.empty:
                rows.append((float(cell[P99].min()), policy, mode, cell))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    series = []
    texts: list = []
    xs: list[float] = []
    ys: list[float] = []
    for y, (_, policy, mode, cell) in enumerate(rows):
        label = policy if len(modes) == 1 else f"{policy} ({mode})"
        (line,) = ax.plot(
            cell[P99],
            [y] * len(cell),
            marker=marker_map(policies, "throttle")[policy],
            linestyle="-",
            markerfacecolor=colors[policy] if mode != "live" else "none",
            color=colors[policy],
            linewidth=1.4,
            markersize=5,
        )
        tag(line, f"{scenario}/{label}", policy)
        series.append(f"{scenario}/{label}")
        ax.errorbar(
            cell[P99],
            [y] * len(cell),
            xerr=[(cell[P99] - cell[f"{P99}_min"]).clip(lower=0), (cell[f"{P99}_max"] - cell[P99]).clip(lower=0)],
            fmt="none",
            ecolor=colors[policy],
            elinewidth=0.8,
            capsize=2,
            alpha=0.7,
        )
        if len(cell) > 1 and policy in SWEEP_PARAMETER:
            for _, p in cell.dropna(subset=["sweep"]).iterrows():
                texts.append(ax.text(p[P99], y, f"{p['sweep']:g}", fontsize=6, color=colors[policy]))
                xs.append(p[P99])
                ys.append(y)
    ax.set_yticks(range(len(rows)), [r[1] if len(modes) == 1 else f"{r[1]} ({r[2]})" for r in rows], fontsize=7.5)
    ax.set_ylim(len(rows) - 0.5, -0.7)
    ax.set_title(f"{scenario} (every policy, every seed: 0 hitch)")
    values = panel[[P99, f"{P99}_min", f"{P99}_max"]].to_numpy().ravel()
    if not scale_axis(ax, "x", values, "p99 latency (ms)"):
        ax.set_xlim(0, max(1.0, float(panel[f"{P99}_max"].max()) * 1.1))
    ax.grid(True, axis="x", alpha=0.3)
    place_labels(ax, texts, (xs, ys))
    return series


def scenario_updates(events: pd.DataFrame, max_scenarios: int | None = None) -> list[tuple[str, pd.DataFrame]]:
    """The update rows of `--events`, per scenario in file order (the first `max_scenarios`)."""
    events = update_rows(events)
    scenarios = list(dict.fromkeys(events["scenario"]))
    if max_scenarios is not None:
        scenarios = scenarios[:max_scenarios]
    return [(scenario, events[events["scenario"] == scenario]) for scenario in scenarios]


def timelines(
    runs: list[WorkloadRun], events: pd.DataFrame, out_dir: Path, max_scenarios: int | None = None
) -> list[Chart]:
    """Rows per update and frame lateness over time, one row of panels per policy, first seed only."""
    charts = []
    for scenario, sub in scenario_updates(events, max_scenarios):
        seeds = sorted(sub["seed"].unique())
        seed = seeds[0]
        sub = sub[sub["seed"] == seed]
        run_ids = set(sub["run_id"])
        policies = ordered(sub["variant"].unique())
        colors = color_map(ordered(POLICY_ORDER + policies), "throttle")
        fig, axes = plt.subplots(len(policies), 2, figsize=(11, 1.05 * len(policies) + 1.6), sharex=True, squeeze=False)
        for (ax_rows, ax_late), policy in zip(axes, policies, strict=True):
            p = sub[sub["variant"] == policy]
            t = p["time_ms"] / 1000.0
            lines = ax_rows.vlines(t, 0, p["rows"], color=colors[policy], linewidth=1.0, label="rows per update")
            tag(lines, f"{scenario}/{policy}/rows", policy)
            resets = p[p["reset"] != 0]
            if len(resets):
                ax_rows.plot(
                    resets["time_ms"] / 1000.0,
                    resets["rows"],
                    "x",
                    color="#d62728",
                    markersize=5,
                    label="reset (full reload)",
                )
            (late,) = ax_late.plot(
                t, p["frame_lateness_ms"], ".", color=colors[policy], markersize=3, label="frame lateness"
            )
            tag(late, f"{scenario}/{policy}/lateness", policy)
            ax_rows.set_ylim(0, max(1.0, float(p["rows"].max() if len(p) else 1)) * 1.12)
            ax_late.set_ylim(0, max(1.0, float(p["frame_lateness_ms"].max() if len(p) else 1)) * 1.12)
            ax_rows.set_ylabel(f"{policy}\nrows", fontsize=7.5)
            ax_late.set_ylabel("lateness (ms)", fontsize=7.5)
            for ax in (ax_rows, ax_late):
                ax.grid(True, alpha=0.3)
                ax.tick_params(labelsize=7)
        axes[0][0].set_title("rows per update (rows)")
        axes[0][1].set_title("frame lateness of the update's frame (ms)")
        axes[-1][0].set_xlabel("time (s)")
        axes[-1][1].set_xlabel("time (s)")
        handles = [
            Line2D([], [], color="#444", label="rows per update (bar per update)"),
            Line2D([], [], color="#d62728", marker="x", linestyle="", label="reset (full reload)"),
            Line2D([], [], color="#444", marker=".", linestyle="", label="frame lateness (ms)"),
        ]
        legend = fig.legend(handles=handles, loc="upper right", fontsize=7.5, ncol=3)
        selected = [r for r in runs if run_ids & set(r.run_ids)] or runs
        # The events file has no mode column: a live run writes its live timeline, a sim run its simulated one.
        modes = sorted(
            {
                str(r.parameters_by_run().get(i, {}).get("mode", "sim"))
                for r in selected
                for i in run_ids
                if i in r.run_ids
            }
        ) or ["sim"]
        title = f"Throttling timeline: {scenario} (seed {seed}, {'/'.join(modes)}), one row per policy"
        if len(seeds) > 1:
            title += f" (first of {len(seeds)} seeds; the rest are in the events CSV)"
        layout(fig, title, top_legend=legend)
        charts.append(save(fig, out_dir, f"throttle-timeline-{slug(scenario)}", title, "throttle", selected, policies))
    return charts
