"""What every chart shares: a headless backend, the footer with run id and host, PNG + SVG output."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

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


def layout(fig, title: str, subtitle: str | None = None, right_legend=None, top_legend=None) -> None:
    """Title (and subtitle) at fixed distances from the top, a legend in its own margin, no overlaps.

    Margins are measured in inches, so they hold for any figure size; a legend on the right gets
    exactly the width it needs.
    """
    width, height = fig.get_size_inches()
    fig.suptitle(title, fontsize=12, fontweight="bold", y=1 - 0.1 / height, va="top")
    top = 0.45
    if subtitle:
        fig.text(0.5, 1 - 0.42 / height, subtitle, ha="center", va="top", fontsize=8.5, color="#444444")
        top = 0.68 + 0.16 * subtitle.count("\n")
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


# adjustText's iterations per chart: it stops earlier once no label overlaps another or a point.
LABEL_ITERATIONS = 1000


def place_labels(ax, texts: list, points=None) -> None:
    """Moves annotation texts apart so none overlaps another or a point (adjustText), with a thin
    line back to the point a label left."""
    if len(texts) < 1:
        return
    from adjustText import adjust_text

    xs, ys = (list(points[0]), list(points[1])) if points is not None else (None, None)
    # A fixed number of iterations, not adjustText's default one-second budget: with a time limit
    # the placement depends on how fast the machine is at that moment (a loaded CI host stopped it
    # early, with labels still overlapping), so the same data could give another chart.
    adjust_text(
        texts,
        x=xs,
        y=ys,
        ax=ax,
        expand=(1.2, 1.5),
        force_text=(0.3, 0.6),
        force_static=(0.2, 0.4),
        arrowprops={"arrowstyle": "-", "color": "#999999", "lw": 0.6},
        min_arrow_len=8,
        ensure_inside_axes=True,
        time_lim=None,
        iter_lim=LABEL_ITERATIONS,
    )


def log_ticks(axis, low: float, high: float) -> None:
    """Plain-number ticks on a log axis (no 10^x, no crowded minor labels): 1-2-5 within two decades, decades beyond."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    decades = np.log10(max(high, 1e-12) / max(low, 1e-12))
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 2 else (1.0,)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())
