"""What every chart shares: a headless backend, the footer with run id and host, PNG + SVG output."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: charts are files, never windows
import matplotlib.pyplot as plt  # noqa: E402

from ..results import WorkloadRun  # noqa: E402

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
    id_text = f"run {ids[0]}" if len(ids) == 1 else f"runs ({len(ids)}) {', '.join(ids[:3])}{', …' if len(ids) > 3 else ''}"
    host_text = ("host " if len(hosts) == 1 else "hosts ") + ", ".join(hosts[:4]) + (", …" if len(hosts) > 4 else "")
    builds = sorted({str(run.document.get("metadata", {}).get("build_configuration", "?")) for run in runs})
    return f"{id_text}  ·  {host_text}  ·  {'/'.join(builds)} build"


def tag(artist, series: str) -> None:
    """Names an artist in the SVG (`<g id="series:...">`) so tests can find each series."""
    artist.set_gid(f"series:{slug(series)}")


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


def save(fig, out_dir: Path, name: str, title: str, workload: str, runs: list[WorkloadRun],
         series: list[str]) -> Chart:
    """Writes PNG and SVG with the footer; `title` is the chart's title as set by `layout`."""
    fig.text(0.01, 0.005, footer_text(runs), fontsize=7, color="#555555", ha="left", va="bottom")
    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    fig.savefig(png, dpi=110)
    fig.savefig(svg, metadata={"Date": None})
    plt.close(fig)
    return Chart(name=name, title=title, workload=workload, png=png, svg=svg, series=series)


# One colour per variant in every chart (frontier, timelines, atomics, history): fixed for the
# variants the suite knows (each workload's variants take the distinct tab10 colours in order; a
# variant name belongs to one workload, so they never meet in one chart), derived from the name
# (not from the order of appearance) for the rest.
KNOWN_VARIANTS = [
    # throttle policies
    ["immediate", "fixed-rate", "signal-adaptive", "signal-brief", "debounce-last", "throttle-first-last",
     "frame-budget"],
    # lock strategies
    ["atomic", "c-atomic", "pthread-mutex", "c-pthread-mutex", "pthread-mutex-adaptive", "nslock", "mutex", "spinlock",
     "dispatch-queue", "unsynchronized"],
    # clock sources
    ["date", "realtime", "monotonic", "monotonic-raw", "boottime"],
]
_PALETTE = list(plt.get_cmap("tab10").colors)
_EXTRA = list(plt.get_cmap("Dark2").colors) + list(plt.get_cmap("Set1").colors)


def variant_color(name: str) -> tuple:
    for group in KNOWN_VARIANTS:
        if name in group:
            return _PALETTE[group.index(name) % len(_PALETTE)]
    import zlib
    return _EXTRA[zlib.crc32(name.encode("utf-8")) % len(_EXTRA)]


def color_map(names: list[str]) -> dict[str, tuple]:
    """Colours for these variants; the same variant gets the same colour in every chart."""
    return {name: variant_color(name) for name in names}
