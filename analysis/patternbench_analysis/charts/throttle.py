"""Throttling charts: the latency-vs-jank frontier per scenario, and the per-update timeline."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from ..results import WorkloadRun
from .common import Chart, color_map, layout, save, slug, tag

P99, HITCH = "latency_p99_ms", "hitch_ms_per_s"

# The one parameter each policy is tuned by (bench-throttle's flags); runs that differ in it form a
# sweep, drawn as a curve through the policy's points.
SWEEP_PARAMETER = {
    "fixed-rate": "fixed_interval_ms",
    "debounce-last": "debounce_ms",
    "throttle-first-last": "debounce_ms",
    "frame-budget": "max_age_ms",
}
POLICY_ORDER = ["immediate", "fixed-rate", "signal-adaptive", "signal-brief", "debounce-last",
                "throttle-first-last", "frame-budget"]


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
        wide = table.pivot_table(index=["run_id", "scenario", "variant", "mode", "seed", "repetition"],
                                 columns="metric", values="value", aggfunc="first").reset_index()
        wide["sweep"] = [
            params.get(r, {}).get(SWEEP_PARAMETER.get(v, ""), None) if v in SWEEP_PARAMETER else None
            for r, v in zip(wide["run_id"], wide["variant"])
        ]
        frames.append(wide)
    if not frames:
        return pd.DataFrame(columns=["scenario", "variant", "mode", "sweep", P99, HITCH])
    wide = pd.concat(frames, ignore_index=True)
    for column in (P99, HITCH):
        if column not in wide:
            wide[column] = float("nan")
    wide["sweep"] = wide["sweep"].astype("float64")
    return (wide.groupby(["scenario", "variant", "mode", "sweep"], dropna=False)[[P99, HITCH]]
            .median().reset_index())


def frontier(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    points = frontier_points(runs)
    points = points.dropna(subset=[P99, HITCH])
    if points.empty:
        return None
    scenarios = list(dict.fromkeys(s for run in runs for s in run.table["scenario"] if s in set(points["scenario"])))
    policies = ordered(points["variant"].unique())
    colors = color_map(policies)
    modes = sorted(points["mode"].unique())
    columns = min(3, len(scenarios))
    rows = (len(scenarios) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(4.6 * columns + 1.8, 3.6 * rows + 0.9), squeeze=False)
    series = []
    for ax, scenario in zip(axes.flat, scenarios):
        panel = points[points["scenario"] == scenario]
        for policy in policies:
            for mode in modes:
                cell = panel[(panel["variant"] == policy) & (panel["mode"] == mode)].sort_values("sweep")
                if cell.empty:
                    continue
                label = policy if len(modes) == 1 else f"{policy} ({mode})"
                (line,) = ax.plot(cell[HITCH], cell[P99], marker="o" if mode != "live" else "s",
                                  markerfacecolor=colors[policy] if mode != "live" else "none",
                                  color=colors[policy], linewidth=1.4, markersize=5, label=label)
                tag(line, f"{scenario}/{label}")
                series.append(f"{scenario}/{label}")
                if len(cell) > 1 and policy in SWEEP_PARAMETER:
                    labels: dict[tuple, list[str]] = {}
                    for _, p in cell.dropna(subset=["sweep"]).iterrows():
                        labels.setdefault((round(p[HITCH], 6), round(p[P99], 6)), []).append(f"{p['sweep']:g}")
                    for (x, y), values in labels.items():
                        ax.annotate(", ".join(values) + " ms", (x, y), textcoords="offset points",
                                    xytext=(4, 3), fontsize=6.5, color=colors[policy])
        ax.set_title(scenario)
        ax.set_xlabel("hitch ratio (ms of hitch per s)")
        ax.set_ylabel("p99 latency (ms)")
        values = panel[P99]
        if len(values) and values.min() > 0 and values.max() / values.min() > 20:
            ax.set_yscale("log")
            ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            ax.yaxis.set_minor_formatter(NullFormatter())
        right = max(1.0, float(panel[HITCH].max()) * 1.08)  # hitch is never negative; keep 0 visible
        ax.set_xlim(-0.03 * right, right)
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(scenarios):]:
        ax.set_visible(False)
    handles = [Line2D([], [], color=colors[p], marker="o", label=p) for p in policies]
    if "live" in modes:
        handles.append(Line2D([], [], color="#444", marker="o", linestyle="", label="sim mode (virtual time)"))
        handles.append(Line2D([], [], color="#444", marker="s", markerfacecolor="none", linestyle="", label="live mode"))
    if any(len(points[(points["variant"] == p)]["sweep"].dropna().unique()) > 1 for p in SWEEP_PARAMETER):
        handles.append(Line2D([], [], color="#444", label="curve: parameter sweep (labels: value)"))
    legend = fig.legend(handles=handles, title="policy", loc="center right", fontsize=8)
    title = "Throttling: p99 latency vs hitch ratio per policy"
    layout(fig, title, "median over seeds per scenario; lower-left is better", right_legend=legend)
    return save(fig, out_dir, "throttle-frontier", title, "throttle", runs, series)


def timelines(runs: list[WorkloadRun], events: pd.DataFrame, out_dir: Path, max_scenarios: int | None = None) -> list[Chart]:
    """Rows per update and frame lateness over time, one row of panels per policy, first seed only."""
    charts = []
    scenarios = list(dict.fromkeys(events["scenario"]))
    if max_scenarios is not None:
        scenarios = scenarios[:max_scenarios]
    for scenario in scenarios:
        sub = events[events["scenario"] == scenario]
        seed = sub["seed"].min()
        sub = sub[sub["seed"] == seed]
        run_ids = set(sub["run_id"])
        policies = ordered(sub["variant"].unique())
        colors = color_map(ordered(POLICY_ORDER + policies))
        fig, axes = plt.subplots(len(policies), 2, figsize=(11, 1.05 * len(policies) + 1.6), sharex=True,
                                 squeeze=False)
        for (ax_rows, ax_late), policy in zip(axes, policies):
            p = sub[sub["variant"] == policy]
            t = p["time_ms"] / 1000.0
            lines = ax_rows.vlines(t, 0, p["rows"], color=colors[policy], linewidth=1.0, label="rows per update")
            tag(lines, f"{scenario}/{policy}/rows")
            resets = p[p["reset"] != 0]
            if len(resets):
                ax_rows.plot(resets["time_ms"] / 1000.0, resets["rows"], "x", color="#d62728", markersize=5,
                             label="reset (full reload)")
            (late,) = ax_late.plot(t, p["frame_lateness_ms"], ".", color=colors[policy], markersize=3,
                                   label="frame lateness")
            tag(late, f"{scenario}/{policy}/lateness")
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
        handles = [Line2D([], [], color="#444", label="rows per update (bar per update)"),
                   Line2D([], [], color="#d62728", marker="x", linestyle="", label="reset (full reload)"),
                   Line2D([], [], color="#444", marker=".", linestyle="", label="frame lateness (ms)")]
        legend = fig.legend(handles=handles, loc="upper right", fontsize=7.5, ncol=3)
        selected = [r for r in runs if run_ids & set(r.run_ids)] or runs
        # The events file has no mode column: a live run writes its live timeline, a sim run its simulated one.
        modes = sorted({str(r.parameters_by_run().get(i, {}).get("mode", "sim")) for r in selected for i in run_ids
                        if i in r.run_ids}) or ["sim"]
        title = f"Throttling timeline: {scenario} (seed {seed}, {'/'.join(modes)}), one row per policy"
        layout(fig, title, top_legend=legend)
        charts.append(save(fig, out_dir, f"throttle-timeline-{slug(scenario)}", title, "throttle", selected, policies))
    return charts
