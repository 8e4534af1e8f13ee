"""Atomics charts: ns/op against threads per lock strategy (log axis), fairness beside it.

The co-scheduling mode is part of the picture: the probe's verdict (did the threads really run
at the same time?) is printed under the title, and points whose repetitions ran mostly
serialized (co_scheduled_fraction < 0.9) are drawn hollow.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.lines import Line2D

from ..results import WorkloadRun, factor_text
from .common import Chart, color_map, layout, marker_map, min_max_lengths, range_bars, save, slug, tag

NS, JAIN, CO = "ns_per_op", "jain_fairness", "co_scheduled_fraction"
CO_THRESHOLD = 0.9
STRATEGY_ORDER = [
    "atomic",
    "c-atomic",
    "pthread-mutex",
    "c-pthread-mutex",
    "pthread-mutex-adaptive",
    "nslock",
    "mutex",
    "spinlock",
    "dispatch-queue",
    "unsynchronized",
]


def probe_text(runs: list[WorkloadRun]) -> str:
    parts = []
    for run in runs:
        for source in run.sources():
            probe = source.get("parameters", {}).get("co_scheduling_probe")
            if not isinstance(probe, dict):
                continue
            seen = []
            for when in ("before", "after"):
                p = probe.get(when)
                if isinstance(p, dict) and "verdict" in p:
                    fraction = p.get("fraction")
                    share = f" ({fraction:.0%} co-scheduled)" if isinstance(fraction, (int, float)) else ""
                    seen.append(f"{p['verdict']} {when}{share}")
            if seen:
                parts.append(", ".join(seen))
    pins = {bool(s.get("parameters", {}).get("pin")) for r in runs for s in r.sources()}
    pinning = {frozenset([True]): "threads pinned to CPUs (--pin)", frozenset([False]): "threads not pinned"}.get(
        frozenset(pins), "pinned and unpinned runs mixed"
    )
    if not parts:
        return f"co-scheduling probe: not run; {pinning}"
    unique = list(dict.fromkeys(parts))
    return "co-scheduling probe: " + "; ".join(unique[:2]) + (" …" if len(unique) > 2 else "") + f"; {pinning}"


def work_text(ns) -> str:
    """`cs_work_ns` for a title: `0`, `50 ns`, `1 µs`; a dash where not applicable."""
    if ns is None or pd.isna(ns):
        return "—"
    if ns == 0:
        return "0"
    return f"{ns / 1000:g} µs" if ns >= 1000 else f"{ns:g} ns"


def cells(runs: list[WorkloadRun]) -> pd.DataFrame:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    for column in ("threads", "cs_work_ns", "gap_work_ns"):
        if column not in table:
            table[column] = float("nan")
        table[column] = table[column].fillna(-1.0)  # groupby drops NaN keys; -1 stands for "not applicable"
    table = table[table["metric"].isin([NS, JAIN, CO])]
    if table.empty:
        return table
    wide = table.pivot_table(
        index=["scenario", "variant", "mode", "threads", "cs_work_ns", "gap_work_ns", "run_id", "seed", "repetition"],
        columns="metric",
        values="value",
        aggfunc="first",
    ).reset_index()
    for column in (NS, JAIN, CO):
        if column not in wide:
            wide[column] = float("nan")
    keys = ["scenario", "variant", "mode", "threads", "cs_work_ns", "gap_work_ns"]
    grouped = wide.groupby(keys)
    medians = grouped[[NS, JAIN, CO]].median()
    medians["n"] = grouped[NS].count()
    medians["ns_q25"] = grouped[NS].quantile(0.25)
    medians["ns_q75"] = grouped[NS].quantile(0.75)
    for column in (NS, JAIN):  # the spread both panels draw
        medians[f"{column}_min"] = grouped[column].min()
        medians[f"{column}_max"] = grouped[column].max()
    medians = medians.reset_index()
    for column in ("threads", "cs_work_ns", "gap_work_ns"):
        medians[column] = medians[column].where(medians[column] >= 0)
    medians["threads_n"] = medians["threads"]
    return medians.sort_values("threads_n")


def _t(value: float) -> str:
    return factor_text(float(value)) if value >= 0 else ""


def charts(runs: list[WorkloadRun], out_dir: Path) -> list[Chart]:
    data = cells(runs)
    if data.empty:
        return []
    out = []
    probe = probe_text(runs)
    strategies_all = [s for s in STRATEGY_ORDER if s in set(data["variant"])] + sorted(
        set(data["variant"]) - set(STRATEGY_ORDER)
    )
    colors = color_map(strategies_all, "atomics")
    markers = marker_map(strategies_all, "atomics")
    for operation in dict.fromkeys(data["scenario"]):
        op = data[data["scenario"] == operation]
        combos = list(
            dict.fromkeys(zip(op["cs_work_ns"].fillna(-1), op["gap_work_ns"].fillna(-1), op["mode"], strict=True))
        )
        fig, axes = plt.subplots(
            len(combos),
            2,
            figsize=(11.5, 3.4 * len(combos) + 1.2),
            squeeze=False,
            gridspec_kw={"width_ratios": [1.6, 1]},
        )
        series = []
        any_hollow = False
        for (ax_ns, ax_fair), (cs, gap, mode) in zip(axes, combos, strict=True):
            cell = op[
                (op["cs_work_ns"].fillna(-1) == cs) & (op["gap_work_ns"].fillna(-1) == gap) & (op["mode"] == mode)
            ]
            for strategy in strategies_all:
                s = cell[cell["variant"] == strategy]
                if s.empty:
                    continue
                (line,) = ax_ns.plot(s["threads_n"], s[NS], "-", color=colors[strategy], linewidth=1.3, label=strategy)
                key = f"{operation}/{_t(cs)}/{_t(gap)}/{mode}/{strategy}"
                tag(line, key, strategy)
                range_bars(
                    ax_ns,
                    s["threads_n"],
                    s[NS],
                    yerr=min_max_lengths(s, NS),
                    series=key,
                    color=colors[strategy],
                    elinewidth=0.9,
                    capsize=2.5,
                    alpha=0.8,
                )
                (fair,) = ax_fair.plot(s["threads_n"], s[JAIN], "-", color=colors[strategy], linewidth=1.3)
                tag(fair, f"{key}/fairness", strategy)
                range_bars(
                    ax_fair,
                    s["threads_n"],
                    s[JAIN],
                    yerr=min_max_lengths(s, JAIN),
                    series=f"{key}/fairness",
                    color=colors[strategy],
                    elinewidth=0.9,
                    capsize=2.5,
                    alpha=0.8,
                )
                together = s[~(s[CO] < CO_THRESHOLD) | (s["threads_n"] <= 1)]
                apart = s[(s[CO] < CO_THRESHOLD) & (s["threads_n"] > 1)]
                any_hollow |= not apart.empty
                for ax, column in ((ax_ns, NS), (ax_fair, JAIN)):
                    for points, face in ((together, colors[strategy]), (apart, "none")):  # hollow: took turns
                        ax.plot(
                            points["threads_n"],
                            points[column],
                            marker=markers[strategy],
                            linestyle="none",
                            color=colors[strategy],
                            markersize=5,
                            markerfacecolor=face,
                        )
                series.append(strategy)
            context = (
                f"cs_work {work_text(cs if cs >= 0 else None)}, gap_work {work_text(gap if gap >= 0 else None)}, {mode}"
            )
            ax_ns.set_title(f"ns/op ({context})")
            ax_fair.set_title("Jain fairness across threads (1 = equal shares)")
            ax_ns.set_yscale("log")
            for ax in (ax_ns, ax_fair):
                ax.set_xscale("log", base=2)
                ticks = sorted(cell["threads_n"].dropna().unique())
                ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
                ax.set_xlabel("threads")
                ax.grid(True, alpha=0.3, which="both")
            ax_ns.set_ylabel("ns per operation (log scale)")
            ax_fair.set_ylabel("Jain fairness index")
            ax_fair.set_ylim(0, 1.05)
        handles = [Line2D([], [], color=colors[s], marker=markers[s], label=s) for s in dict.fromkeys(series)]
        handles.append(Line2D([], [], color="#444", marker="o", linestyle="", label="threads ran together"))
        handles.append(
            Line2D(
                [],
                [],
                color="#444",
                marker="o",
                markerfacecolor="none",
                linestyle="",
                label=f"took turns ({CO} < {CO_THRESHOLD})",
            )
        )
        legend = fig.legend(handles=handles, title="lock strategy", loc="center right", fontsize=8)
        title = f"Atomics: {operation}: ns/op and fairness vs threads per lock strategy"
        counts = sorted({int(n) for n in op["n"].dropna().unique()})
        spread = (
            f"points: median of n={'/'.join(map(str, counts))} repetitions, bars: min–max; "
            "both axes logarithmic (ns/op and threads)"
        )
        layout(
            fig,
            title,
            probe + ("; hollow points: threads mostly serialized" if any_hollow else "") + "\n" + spread,
            right_legend=legend,
        )
        out.append(
            save(fig, out_dir, f"atomics-{slug(operation)}", title, "atomics", runs, list(dict.fromkeys(series)))
        )
    return out
