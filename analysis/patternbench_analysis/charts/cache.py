"""Cache chart: hit ratio against capacity, one line per policy, one panel per trace.

Main-app context, virtual time (exact), median over seeds. A capacity sweep shows where a policy
gains over the reference LRU and where it loses, and where Linux's NSCache freezes.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from ..results import WorkloadRun
from .common import (
    Chart,
    finish,
    identical_groups,
    merged_label,
    place_labels,
    spread_text,
    tag,
    variant_legend,
    variant_style,
)

VARIANT_ORDER = ["lru", "signal-2018", "signal-2021", "nscache-corelibs", "fifo", "random", "s3-fifo"]


def sweep_table(runs: list[WorkloadRun]) -> pd.DataFrame:
    """(scenario, variant, capacity, hit_ratio, n, hit_ratio_min, hit_ratio_max): main-app sim records,
    median, count and range over seeds."""
    table = pd.concat([r.table for r in runs], ignore_index=True)
    columns = ["scenario", "variant", "capacity", "hit_ratio", "n", "hit_ratio_min", "hit_ratio_max"]
    if "context" not in table or "capacity" not in table:
        return pd.DataFrame(columns=columns)
    rows = table[(table["mode"] == "sim") & (table["metric"] == "hit_ratio") & (table["context"] == "main-app")].copy()
    rows["capacity"] = pd.to_numeric(rows["capacity"])
    grouped = rows.groupby(["scenario", "variant", "capacity"], sort=False)["value"]
    out = pd.DataFrame(
        {
            "hit_ratio": grouped.median(),
            "n": grouped.count(),
            "hit_ratio_min": grouped.min(),
            "hit_ratio_max": grouped.max(),
        }
    ).reset_index()
    return out[columns]


def hit_ratio_vs_capacity(runs: list[WorkloadRun], out_dir: Path) -> Chart | None:
    data = sweep_table(runs)
    if data.empty or data["capacity"].nunique() < 2:
        return None
    scenarios = list(dict.fromkeys(data["scenario"]))
    present = list(dict.fromkeys(data["variant"]))
    variants = [v for v in VARIANT_ORDER if v in present] + [v for v in present if v not in VARIANT_ORDER]
    styles = variant_style(variants, "cache")
    columns = min(4, len(scenarios))
    rows = (len(scenarios) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(3.3 * columns + 1.8, 2.7 * rows + 1.2), squeeze=False, sharey=True)
    series = []
    for ax, scenario in zip(axes.flat, scenarios, strict=False):
        sub = data[data["scenario"] == scenario]
        # Policies whose curves are the same here are drawn once, a label naming each.
        curves = {
            v: sub[sub["variant"] == v]
            .sort_values("capacity")[["capacity", "hit_ratio", "hit_ratio_min", "hit_ratio_max"]]
            .to_numpy()
            for v in variants
        }
        notes, xs, ys = [], [], []
        for group in identical_groups(curves):
            variant = group[0]
            line = sub[sub["variant"] == variant].sort_values("capacity")
            if line.empty:
                continue
            bold = any(v in ("lru", "s3-fifo") for v in group)
            style = {"linewidth": 2.2, "zorder": 3} if bold else {"linewidth": 1.2, "alpha": 0.85}
            (artist,) = ax.plot(
                line["capacity"], line["hit_ratio"], markersize=4, label=variant, **styles[variant], **style
            )
            band = ax.fill_between(
                line["capacity"],
                line["hit_ratio_min"],
                line["hit_ratio_max"],
                color=styles[variant]["color"],
                alpha=0.18,
            )
            band.set_gid(f"spread:{scenario}:{variant}")
            tag(artist, f"{scenario}:{variant}", variant)
            series += [f"{scenario}:{v}" for v in group]
            xs += list(line["capacity"])
            ys += list(line["hit_ratio"])
            if len(group) > 1:
                middle = line.iloc[len(line) // 2]
                notes.append(
                    ax.text(
                        middle["capacity"],
                        middle["hit_ratio"],
                        merged_label(group),
                        fontsize=6,
                        color=styles[variant]["color"],
                    )
                )
        place_labels(ax, notes, (xs, ys))
        ax.set_xscale("log")
        ax.set_title(scenario, fontsize=9)
        ax.set_xlabel("capacity (entries, log)")
        ax.grid(True, which="major", alpha=0.3)
        ax.set_ylim(0, 1)
    for ax in list(axes.flat)[len(scenarios) :]:
        ax.set_visible(False)
    for row in axes:
        row[0].set_ylabel("hit ratio")
    return finish(
        fig,
        out_dir,
        "cache-hit-ratio-vs-capacity",
        "cache",
        runs,
        series,
        title="Caches: hit ratio against capacity per policy",
        subtitle=f"main-app context, virtual time; lines: {spread_text(data['n'], spread='bands: min–max')} "
        f"(widest {float((data['hit_ratio_max'] - data['hit_ratio_min']).max()):.3f}); lru and s3-fifo (ours) drawn bold",
        legend=variant_legend(fig, styles, title="policy", line=True),
    )
