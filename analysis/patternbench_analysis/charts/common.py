"""What every chart shares: a headless backend, the footer with run id and host, PNG + SVG output."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: charts are files, never windows
import matplotlib.pyplot as plt
import numpy as np

from ..results import WorkloadRun

# Deterministic SVG output (same input, same bytes), so charts can be diffed and tested.
matplotlib.rcParams["svg.hashsalt"] = "patternbench"
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: titles and legends are searchable
matplotlib.rcParams["font.size"] = 9
matplotlib.rcParams["axes.titlesize"] = 10


@dataclass
class Chart:
    """A written chart: its files and the series it draws (for the report and the tests)."""

    name: str
    title: str
    workload: str
    png: Path
    svg: Path
    series: list[str] = field(default_factory=list)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


def footer_text(runs: list[WorkloadRun]) -> str:
    ids = sorted({r for run in runs for r in run.run_ids})
    hosts = sorted({h for run in runs for h in run.hosts})
    id_text = (
        f"run {ids[0]}" if len(ids) == 1 else f"runs ({len(ids)}) {', '.join(ids[:3])}{', …' if len(ids) > 3 else ''}"
    )
    host_text = ("host " if len(hosts) == 1 else "hosts ") + ", ".join(hosts[:4]) + (", …" if len(hosts) > 4 else "")
    builds = sorted({str(run.document.get("metadata", {}).get("build_configuration", "?")) for run in runs})
    return f"{id_text}  ·  {host_text}  ·  {'/'.join(builds)} build"


def tag(artist, series: str, variant: str | None = None) -> None:
    """Names an artist in the SVG (`<g id="series:...">`) so tests can find each series; `variant`
    (kept on the artist, not drawn) lets the legibility test check that no two variants share a colour."""
    artist.set_gid(f"series:{slug(series)}")
    if variant is not None:
        artist.pb_variant = variant


# Characters of the 8.5 pt subtitle per inch of figure width, with a margin (its average glyph is
# about 4.3 pt wide, 16.7 to the inch).
SUBTITLE_CHARS_PER_INCH = 14.5
TITLE_CHARS_PER_INCH = 9.0  # the 12 pt bold title


def layout(fig, title: str, subtitle: str | None = None, right_legend=None, top_legend=None) -> None:
    """Title (and subtitle) at fixed distances from the top, a legend in its own margin, no overlaps.

    Margins are measured in inches, so they hold for any figure size; a legend on the right gets
    exactly the width it needs.
    """
    width, height = fig.get_size_inches()
    if subtitle:  # wrapped to the figure's width: a long caption must not run off its edges
        subtitle = "\n".join(textwrap.fill(line, int(width * SUBTITLE_CHARS_PER_INCH)) for line in subtitle.split("\n"))
    title = textwrap.fill(title, int(width * TITLE_CHARS_PER_INCH))
    extra = 0.22 * title.count("\n")  # inches each further title line takes
    fig.suptitle(title, fontsize=12, fontweight="bold", y=1 - 0.1 / height, va="top")
    top = 0.45 + extra
    if subtitle:
        fig.text(0.5, 1 - (0.42 + extra) / height, subtitle, ha="center", va="top", fontsize=8.5, color="#444444")
        top = 0.68 + extra + 0.16 * subtitle.count("\n")
    right = 0.0
    if top_legend is not None:  # placed with loc="upper right", just under the title
        top_legend.set_bbox_to_anchor((1 - 0.1 / width, 1 - top / height), transform=fig.transFigure)
    if right_legend is not None or top_legend is not None:
        fig.canvas.draw()
    if right_legend is not None:
        right = right_legend.get_window_extent().width / fig.dpi + 0.15
    if top_legend is not None:
        top += top_legend.get_window_extent().height / fig.dpi + 0.08
    fig.tight_layout(rect=(0, 0.3 / height, 1 - right / width, 1 - top / height))


def save(fig, out_dir: Path, name: str, title: str, workload: str, runs: list[WorkloadRun], series: list[str]) -> Chart:
    """Writes PNG and SVG with the footer; `title` is the chart's title as set by `layout`."""
    fig.text(0.01, 0.005, footer_text(runs), fontsize=7, color="#555555", ha="left", va="bottom")
    place_pending_labels(fig)
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    fig.savefig(png, dpi=110)
    fig.savefig(svg, metadata={"Date": None})
    plt.close(fig)
    return Chart(name=name, title=title, workload=workload, png=png, svg=svg, series=series)


def right_legend(fig, ax, title: str | None = None, frameon: bool | None = None):
    """The figure's legend in the right margin, from the labelled artists of `ax` (each label once:
    a variant drawn twice, sim and live or in two rows, is listed once)."""
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    return fig.legend(
        list(unique.values()), list(unique.keys()), loc="center right", title=title, fontsize=8, frameon=frameon
    )


def variant_legend(fig, styles: dict[str, dict], title: str | None = None, line: bool = False):
    """The right-hand legend of every variant in `styles` (colour and marker), drawn or merged into
    another's point: a variant drawn under another's name is still listed."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], linestyle="-" if line else "", marker=style["marker"], color=style["color"], label=name)
        for name, style in styles.items()
    ]
    return fig.legend(handles=handles, loc="center right", title=title, fontsize=8)


def finish(
    fig,
    out_dir: Path,
    name: str,
    workload: str,
    runs: list[WorkloadRun],
    series: list[str],
    *,
    title: str,
    subtitle: str,
    legend,
) -> Chart:
    """How every chart ends: title, subtitle and the right-hand legend laid out (`layout`), then
    written with the footer (`save`)."""
    layout(fig, title, subtitle, right_legend=legend)
    return save(fig, out_dir, name, title, workload, runs, series)


def min_max_lengths(table, column: str) -> list:
    """Error-bar lengths [below, above] from a median column to its `<column>_min` and
    `<column>_max` (never negative): the bars every chart draws as min–max."""
    return [
        (table[column] - table[f"{column}_min"]).clip(lower=0),
        (table[f"{column}_max"] - table[column]).clip(lower=0),
    ]


def range_bars(ax, x, y, *, series: str, color: str, xerr=None, yerr=None, **style):
    """Min–max error bars in a variant's colour, each bar tagged `errorbar:<series>` for the chart tests."""
    bars = ax.errorbar(x, y, xerr=xerr, yerr=yerr, fmt="none", ecolor=color, **style)
    for artist in bars.lines[2]:
        artist.set_gid(f"errorbar:{slug(series)}")
    return bars


# One colour per variant in every chart, from one stable assignment: each role's variants (one
# bench-* registry each, in its `--list` order; tests/test_chart_legibility.py checks these lists
# against the built binaries) take the palette's colours in order, so a variant keeps its colour in
# every chart and no two variants of one role share one. A marker is the second cue.
ROLES: dict[str, list[str]] = {
    "throttle": [
        "immediate",
        "fixed-rate",
        "signal-adaptive",
        "signal-brief",
        "signal-last-only",
        "debounce-last",
        "throttle-first-last",
        "frame-budget",
    ],
    "atomics": [
        "pthread-mutex",
        "nslock",
        "dispatch-queue",
        "mutex",
        "spinlock",
        "pthread-mutex-adaptive",
        "signal-global-lock",
        "atomic",
        "unsynchronized",
        "c-pthread-mutex",
        "c-atomic",
    ],
    "clock": ["date", "realtime", "monotonic", "monotonic-raw", "boottime"],
    "readiness": [
        "signal",
        "signal-2018",
        "signal-2021-lifo",
        "article-lightweight",
        "intent-orchestrator",
        "frame-aware",
    ],
    "cache": ["lru", "signal-2018", "signal-2021", "nscache-corelibs", "fifo", "random", "s3-fifo"],
    "invalidation": ["signal", "signal-legacy", "no-invalidation", "change-log"],
    "lifecycle": ["naive", "article", "signal", "ours", "article-no-retry"],
    "group": [
        "sequential",
        "group-notify",
        "group-wait-worker",
        "group-wait-main",
        "operation-dependencies",
        "async-let",
        "task-group",
        "signal-when-fulfilled",
        "hedged",
    ],
}
# Colour-blind-safe categorical palette: matplotlib's `petroff10` (M. A. Petroff, "Accessible Color
# Sequences for Data Visualization", 2021: chosen for distinctness under colour-vision
# deficiencies), extended to 16 by the glasbey package, whose extension keeps the new colours
# distinct under simulated deuteranomaly:
#   glasbey.extend_palette(petroff10_hex, 16, colorblind_safe=True, lightness_bounds=(30, 70), chroma_bounds=(30, 90))
# (glasbey 0.4.0; it needs numba, so it is run once, not at every chart). 16 covers the largest
# registry (atomics: 11, 12 with Examples' rwlock) with room for user variants; the test measures
# the smallest pairwise distance in CAM02-UCS with and without simulated colour-vision deficiencies.
PALETTE = [matplotlib.colors.to_hex(c) for c in matplotlib.color_sequences["petroff10"]] + [
    "#007139",
    "#dbaafb",
    "#104dff",
    "#a686ba",
    "#618608",
    "#0cc60c",
]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "p", "h", "*", "d", "H", "8", r"$\spadesuit$"]


def role_of(names) -> str | None:
    """The role whose registry holds most of these variant names (None when none does)."""
    names = set(names)
    best = max(ROLES, key=lambda role: len(names & set(ROLES[role])))
    return best if names & set(ROLES[best]) else None


def _slots(names: list[str], role: str | None) -> dict[str, int]:
    """Palette index per name: a suite variant its registry position; another (a user's variant)
    a free slot picked by a hash of its name (stable), the next free one if a name here took it."""
    import zlib

    known = ROLES.get(role or "", [])
    slots = {name: known.index(name) for name in names if name in known}
    taken = set(slots.values())
    free = [i for i in range(len(PALETTE)) if i >= len(known)] or list(range(len(PALETTE)))
    for name in sorted(n for n in dict.fromkeys(names) if n not in slots):
        start = zlib.crc32(name.encode("utf-8")) % len(free)
        order = free[start:] + free[:start]
        slot = next((i for i in order if i not in taken), None)
        if slot is None:  # more variants than colours: reuse one; the marker then tells them apart
            slot = len(PALETTE) + len(taken)
        slots[name] = slot
        taken.add(slot)
    return slots


def variant_style(names: list[str], role: str | None = None) -> dict[str, dict]:
    """`color` and `marker` per variant: the same variant gets the same pair in every chart."""
    role = role or role_of(names)
    return {
        name: {"color": PALETTE[slot % len(PALETTE)], "marker": MARKERS[(slot + slot // len(PALETTE)) % len(MARKERS)]}
        for name, slot in _slots(list(names), role).items()
    }


def color_map(names: list[str], role: str | None = None) -> dict[str, str]:
    """Colours for these variants (see `variant_style`)."""
    return {name: style["color"] for name, style in variant_style(names, role).items()}


def marker_map(names: list[str], role: str | None = None) -> dict[str, str]:
    return {name: style["marker"] for name, style in variant_style(names, role).items()}


def variant_color(name: str, role: str | None = None) -> str:
    """One variant's colour (history's charts draw series one at a time); pass the workload as `role`
    where a name exists in several (`signal`), else the first role holding it is taken."""
    return color_map([name], role)[name]


def variant_point(ax, x: float, y: float, style: dict, variant: str, series: str, size: float):
    """One variant's point in its colour and marker, white-edged over a neighbour, tagged `series`
    for the chart tests."""
    point = ax.scatter(
        [x],
        [y],
        s=size,
        color=style["color"],
        marker=style["marker"],
        label=variant,
        zorder=3,
        edgecolors="white",
        linewidths=0.5,
    )
    tag(point, series, variant)
    return point


# Label placement. A label is tried at growing distances from its point, in 16 directions each, and
# takes the first place where its box stays inside its panel and clears every label already placed
# and every point: deterministic (no time budget, so a loaded machine draws the same chart) and
# checkable (tests/test_chart_legibility.py measures the result). It runs when the figure is saved,
# after the layout has fixed each panel's size: a label placed before the layout moved with its
# panel's data while its text kept its size, which is how labels came to overprint and cross edges.
LABEL_RINGS = (3.0, 8.0, 14.0, 22.0, 32.0, 44.0, 58.0, 75.0, 95.0)  # points from the anchor
LABEL_DIRECTIONS = 16
POINT_CLEARANCE = 4.5  # points: half the box kept free around each drawn point
LEADER_FROM = 10.0  # points: a label further than this from its point gets a thin line back to it


def place_labels(ax, texts: list, points=None, first_angle: float = 45.0) -> None:
    """Registers `texts` (ax.text at their points) to be placed, on save, where none overlaps another,
    a point (`points`: xs, ys in data) or the panel's edge; `first_angle` (degrees, 0 = right, 90 =
    above, as for a bar's note) is the direction tried first: by default the upper right, off the
    horizontal and vertical error bars through a point."""
    if not texts:
        return
    xs, ys = (list(points[0]), list(points[1])) if points is not None else ([], [])
    for text in texts:
        text.set_clip_on(False)
        text.set_in_layout(False)  # placed inside its panel after the layout, not a margin to make room for
    pending = getattr(ax.figure, "pb_pending_labels", [])
    pending.append((ax, list(texts), list(zip(xs, ys, strict=True)), first_angle))
    ax.figure.pb_pending_labels = pending


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0 and min(a[3], b[3]) - max(a[1], b[1]) > 0


def _place(ax, texts: list, points: list[tuple[float, float]], first_angle: float, renderer) -> None:
    import math

    from matplotlib.lines import Line2D

    ax.set_xlim(ax.get_xlim())  # frozen: a leader line must not rescale the panel under its labels
    ax.set_ylim(ax.get_ylim())
    scale = ax.figure.dpi / 72.0
    panel = ax.get_window_extent(renderer)
    inside = (panel.x0 + 2, panel.y0 + 2, panel.x1 - 2, panel.y1 - 2)
    to_pixels = ax.transData.transform
    r = POINT_CLEARANCE * scale
    taken = [(px - r, py - r, px + r, py + r) for px, py in (to_pixels(p) for p in points) if np.isfinite(px + py)]
    angles = [math.radians(first_angle) + 2 * math.pi * k / LABEL_DIRECTIONS for k in range(LABEL_DIRECTIONS)]
    for text in texts:
        anchor = to_pixels(text.get_position())
        text.set_ha("center")
        text.set_va("center")
        box = text.get_window_extent(renderer)
        w, h = box.width, box.height
        best, best_cost = None, math.inf
        for ring in LABEL_RINGS:
            for angle in angles:
                dx, dy = math.cos(angle), math.sin(angle)
                cx = anchor[0] + dx * (ring * scale + w / 2)
                cy = anchor[1] + dy * (ring * scale + h / 2)
                candidate = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                outside = max(0.0, inside[0] - candidate[0]) + max(0.0, candidate[2] - inside[2])
                outside += max(0.0, inside[1] - candidate[1]) + max(0.0, candidate[3] - inside[3])
                cost = 1000 * outside + sum(1 for other in taken if _overlap(candidate, other))
                if cost < best_cost:
                    best, best_cost, best_ring = (cx, cy), cost, ring
                if cost == 0:
                    break
            if best_cost == 0:
                break
        assert best is not None
        text.set_position(ax.transData.inverted().transform(best))
        placed = text.get_window_extent(renderer)
        taken.append((placed.x0, placed.y0, placed.x1, placed.y1))
        if best_ring >= LEADER_FROM:
            end = (min(max(anchor[0], placed.x0), placed.x1), min(max(anchor[1], placed.y0), placed.y1))
            leader = Line2D(
                *zip(*ax.transData.inverted().transform([anchor, end]), strict=True),
                color="#999999",
                linewidth=0.6,
                zorder=1,
            )
            leader.set_gid("leader")
            ax.add_line(leader)


def place_pending_labels(fig) -> None:
    """Places every label registered by `place_labels`, now that the layout is final."""
    pending = getattr(fig, "pb_pending_labels", [])
    if not pending:
        return
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax, texts, points, first_angle in pending:
        _place(ax, texts, points, first_angle, renderer)
    fig.pb_pending_labels = []


# The log-axis rule: a panel whose values span more than this factor is drawn on a log axis, so
# small values are not squeezed against the axis by one large one.
LOG_SPAN = 20.0


def value_span(values) -> float:
    """Largest over smallest positive finite value (1 when there are fewer than two)."""
    array = np.asarray([v for v in values if v is not None], dtype="float64")
    positive = array[np.isfinite(array) & (array > 0)]
    if len(positive) < 2:
        return 1.0
    return float(positive.max() / positive.min())


def scale_axis(ax, which: str, values, label: str) -> bool:
    """Sets `which` ("x" or "y") logarithmic when `values` (medians and their ranges) span more than
    LOG_SPAN×, linear otherwise, and labels it `label` + ", log scale" or ", linear"; True when log.
    Zeros on a log axis: a symmetric-log axis, linear below the smallest positive value, so 0 is drawn."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    set_scale = ax.set_xscale if which == "x" else ax.set_yscale
    set_label = ax.set_xlabel if which == "x" else ax.set_ylabel
    array = np.asarray([v for v in values if v is not None], dtype="float64")
    array = array[np.isfinite(array)]
    if value_span(array) <= LOG_SPAN:
        set_label(f"{label}, linear")
        return False
    positive = array[array > 0]
    low, high = float(positive.min()), float(positive.max())
    set_limits = ax.set_xlim if which == "x" else ax.set_ylim
    if (array <= 0).any():
        floor = 10 ** math_floor_log10(low)
        set_scale("symlog", linthresh=floor, linscale=0.5)
        set_limits(-0.4 * floor, high * 1.6)  # 0 inside the panel, its tick labelled
        set_label(f"{label}, log scale above {floor:g}")
        from matplotlib.ticker import FuncFormatter, NullFormatter, SymmetricalLogLocator

        axis.set_major_locator(SymmetricalLogLocator(linthresh=floor, base=10))
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    else:
        set_scale("log")
        set_limits(low / 1.4, high * 1.4)
        set_label(f"{label}, log scale")
        log_ticks(axis, low, high)
    return True


def math_floor_log10(value: float) -> int:
    import math

    return math.floor(math.log10(value))


def seed_summary(table, keys: list[str]):
    """Median, min, max and n of `value` per `keys` (each row a seed or repetition): what a chart
    draws (the median) and what it shows beside it (n and the min–max spread)."""
    grouped = table.groupby(keys)["value"]
    import pandas as pd

    return pd.DataFrame({"median": grouped.median(), "min": grouped.min(), "max": grouped.max(), "n": grouped.count()})


def every_seed_zero(maxima) -> bool:
    """True when every seed's value is 0, given each point's maximum over its seeds: a caption such
    as "0 hitch" is a fact only then (a median of 0 hides one seed in three that hitched)."""
    array = np.asarray(maxima, dtype="float64")
    return bool(len(array)) and bool((np.abs(array) < 1e-9).all())


def spread_text(counts, unit: str = "seeds", spread: str = "bars: min–max") -> str:
    """What every chart says about its statistics: how many values each point is the median of
    (n, every distinct count) and how their spread is drawn."""
    ns = sorted({int(n) for n in counts if n == n})
    return f"median over n={'/'.join(map(str, ns)) or '0'} {unit}, {spread}"


def identical_groups(curves: Mapping[str, Any]) -> list[list[str]]:
    """Names grouped by identical data (in the order given): a group of several is drawn once, with
    a label naming each (`merged_label`), instead of curves hidden under one another."""
    groups: dict[bytes, list[str]] = {}
    for name, data in curves.items():
        array = np.asarray(data, dtype="float64")
        key = np.round(array, 12).tobytes() + str(array.shape).encode()
        groups.setdefault(key, []).append(name)
    return list(groups.values())


def merged_label(names: list[str], per_line: int = 2) -> str:
    """One label for series drawn once because they are identical: "a = b (identical)", `per_line`
    names to a line so a long group stays narrow enough for its panel."""
    if len(names) == 1:
        return names[0]
    lines = [" = ".join(names[i : i + per_line]) for i in range(0, len(names), per_line)]
    return "\n= ".join(lines) + " (identical)"


def log_ticks(axis, low: float, high: float) -> None:
    """Plain-number ticks on a log axis (no 10^x, no crowded minor labels): 1-2-5 within two decades, decades beyond."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    decades = np.log10(max(high, 1e-12) / max(low, 1e-12))
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2 else (1.0,)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())
