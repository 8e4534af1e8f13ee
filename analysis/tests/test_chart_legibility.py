"""Every chart, rendered from the real fixtures, is legible: no two texts overlap, no two variants share a colour.

Each chart is checked at the moment it is saved (Figure.savefig is wrapped): the bounding boxes of
every visible text (titles, axis labels, tick labels, annotations, legend entries), measured by
matplotlib's own renderer, must not intersect nor cross the figure's edge; every series artist that names its variant must
have that variant's colour and no other variant's. The controls draw two overlapping texts and two
variants in one colour and must be caught. The palette's colour-blind safety is measured in
CAM02-UCS (colorspacious) under simulated colour-vision deficiencies, and the roles' variant lists
are checked against the binaries' `--list` where PB_BIN_DIR is set.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from conftest import FIXTURES
from matplotlib.figure import Figure

from patternbench_analysis.charts import common
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import load_folders

FIXTURE_SETS = {
    "run+sweeps": ["run", "sweep-max-age-60", "sweep-max-age-100"],
    "live": ["live"],
    "cache": ["cache/sweep"],
    "group": ["group"],
    "invalidation": ["invalidation", "invalidation-live"],
    "lifecycle": ["lifecycle", "lifecycle-live"],
    "readiness": ["readiness"],
}


def visible_texts(fig: Figure) -> list[matplotlib.text.Text]:
    """Every text the renderer draws: tick labels only of the ticks inside the view (matplotlib keeps
    labels for ticks outside it, which are not drawn)."""
    all_ticks, drawn_ticks = set(), []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.majorTicks + axis.minorTicks:
                all_ticks |= {tick.label1, tick.label2}
            if ax.get_visible() and ax.axison and axis.get_visible():
                for tick in axis._update_ticks():
                    drawn_ticks += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    texts = []
    for artist in [t for t in fig.findobj(matplotlib.text.Text) if t not in all_ticks] + drawn_ticks:
        if not artist.get_visible() or not artist.get_text().strip():
            continue
        if artist.axes is not None and not artist.axes.get_visible():
            continue
        texts.append(artist)
    return texts


def text_overlaps(fig: Figure) -> list[tuple[str, str]]:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = []
    for text in visible_texts(fig):
        box = text.get_window_extent(renderer)
        if box.width <= 0 or box.height <= 0:
            continue
        boxes.append((text.get_text(), box, text))
    width, height = fig.canvas.get_width_height()
    overlaps = [
        (a, "the figure's edge")
        for a, box, _ in boxes
        if box.x0 < -1 or box.y0 < -1 or box.x1 > width + 1 or box.y1 > height + 1
    ]
    for (a, box_a, _), (b, box_b, _) in itertools.combinations(boxes, 2):
        inter_w = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        inter_h = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        if inter_w > 1.0 and inter_h > 1.0:  # more than a pixel each way: antialiasing aside
            overlaps.append((a, b))
    return overlaps


def artist_color(artist) -> str | None:
    for getter in ("get_color", "get_facecolor", "get_edgecolor"):
        if hasattr(artist, getter):
            value = getattr(artist, getter)()
            if not isinstance(value, str):
                value = np.asarray(value)
                if value.ndim == 2:
                    if not len(value):
                        continue
                    value = value[0]
            return matplotlib.colors.to_hex(value, keep_alpha=False)
    return None


def shared_colors(fig: Figure) -> list[tuple[str, set[str]]]:
    by_color: dict[str, set[str]] = {}
    for artist in fig.findobj(lambda a: hasattr(a, "pb_variant")):
        color = artist_color(artist)
        if color is not None:
            by_color.setdefault(color, set()).add(artist.pb_variant)
    return [(color, variants) for color, variants in by_color.items() if len(variants) > 1]


def variant_count(fig: Figure) -> int:
    return len({a.pb_variant for a in fig.findobj(lambda a: hasattr(a, "pb_variant"))})


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    return render_and_check(FIXTURE_SETS, lambda name: tmp_path_factory.mktemp(name.replace("+", "-")))


def render_and_check(sets: dict[str, list[str]], out_dir) -> list[tuple]:
    """(chart name, text overlaps, shared colours, variants) for every chart of every fixture set."""
    seen = []
    original = Figure.savefig

    def checking_savefig(self, fname, *args, **kwargs):
        if str(fname).endswith(".png"):
            seen.append(
                (
                    Path(str(fname)).stem,
                    text_overlaps(self),
                    shared_colors(self),
                    variant_count(self),
                )
            )
        # Nothing is written: the checks measure the figure itself (drawn by text_overlaps), and
        # encoding every chart to PNG and SVG doubled the file's time in CI.

    Figure.savefig = checking_savefig
    try:
        for name, folders in sets.items():
            out = out_dir(name)
            render_all(load_folders([FIXTURES / f for f in folders]), out, log=lambda m: None)
    finally:
        Figure.savefig = original
    return seen


def test_every_workload_is_drawn(rendered):
    names = {name for name, *_ in rendered}
    for prefix in (
        "throttle-frontier",
        "throttle-timeline",
        "throttle-worst-second",
        "atomics-",
        "clock-error-heatmap",
        "cache-hit-ratio",
        "group-cost",
        "invalidation-staleness-cost",
        "lifecycle-outcomes",
        "readiness-launch",
    ):
        assert any(n.startswith(prefix) for n in names), (prefix, names)


def test_no_two_texts_overlap_in_any_chart(rendered):
    bad = {name: overlaps[:4] for name, overlaps, _, _ in rendered if overlaps}
    assert not bad, bad


def test_no_two_variants_share_a_colour_in_any_chart(rendered):
    bad = {name: shared for name, _, shared, _ in rendered if shared}
    assert not bad, bad
    # the check saw variants at all: every chart that draws variants tags them
    assert all(count > 0 for name, _, _, count in rendered if not name.startswith("clock")), rendered


def test_control_overlapping_texts_and_shared_colours_are_caught():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.text(0.5, 0.5, "one label here", transform=ax.transAxes)
    ax.text(0.52, 0.51, "another label", transform=ax.transAxes)
    (a,) = ax.plot([0, 1], [0, 1], color="#3f90da")
    (b,) = ax.plot([0, 1], [1, 0], color="#3f90da")
    common.tag(a, "x:a", "a")
    common.tag(b, "x:b", "b")
    ax.text(1.5, 0.5, "beyond the edge", transform=ax.transAxes)
    assert ("one label here", "another label") in text_overlaps(fig)
    assert ("beyond the edge", "the figure's edge") in text_overlaps(fig)
    assert shared_colors(fig) == [("#3f90da", {"a", "b"})]
    plt.close(fig)


def test_one_stable_colour_per_variant_and_distinct_within_every_role():
    for role, names in common.ROLES.items():
        styles = common.variant_style(names, role)
        assert len({s["color"] for s in styles.values()}) == len(names), role
        assert len({s["marker"] for s in styles.values()}) == len(names), role
        for name in names:  # the same colour alone or among others
            assert common.variant_style([name], role)[name] == styles[name]
    # a user's variant: a free colour of its role, the same in every chart
    with_user = common.color_map(common.ROLES["atomics"] + ["rwlock"], "atomics")
    assert with_user["rwlock"] not in {with_user[n] for n in common.ROLES["atomics"]}
    assert common.color_map(["rwlock", "mutex"], "atomics")["rwlock"] == with_user["rwlock"]
    assert len(common.PALETTE) >= max(len(v) for v in common.ROLES.values()) + 1


def test_palette_is_colour_blind_safe():
    """Smallest CAM02-UCS distance between any two palette colours, normal vision and simulated
    deuteranomaly, protanomaly and tritanomaly (severity 50): at least 10 (petroff10 alone: 15.5)."""
    colorspacious = pytest.importorskip("colorspacious")
    rgb = np.array([matplotlib.colors.to_rgb(c) for c in common.PALETTE])
    for cvd in (None, "deuteranomaly", "protanomaly", "tritanomaly"):
        seen = (
            rgb
            if cvd is None
            else np.clip(
                colorspacious.cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 50}, "sRGB1"),
                0,
                1,
            )
        )
        ucs = colorspacious.cspace_convert(seen, "sRGB1", "CAM02-UCS")
        closest = min(np.linalg.norm(ucs[i] - ucs[j]) for i, j in itertools.combinations(range(len(ucs)), 2))
        assert closest >= 10, (cvd, closest)
    # control: tab10's red and its brown-ish orange come closer under deuteranomaly
    tab = np.array([matplotlib.colors.to_rgb(c) for c in matplotlib.color_sequences["tab10"]])
    seen = np.clip(
        colorspacious.cspace_convert(
            tab,
            {"name": "sRGB1+CVD", "cvd_type": "deuteranomaly", "severity": 50},
            "sRGB1",
        ),
        0,
        1,
    )
    ucs = colorspacious.cspace_convert(seen, "sRGB1", "CAM02-UCS")
    assert min(np.linalg.norm(ucs[i] - ucs[j]) for i, j in itertools.combinations(range(len(ucs)), 2)) < 10


TOOLS = {
    "throttle": "bench-throttle",
    "atomics": "bench-atomics",
    "clock": "bench-clock",
    "readiness": "bench-readiness",
    "cache": "bench-cache",
    "invalidation": "bench-invalidation",
    "lifecycle": "bench-lifecycle",
    "group": "bench-group",
}


@pytest.mark.parametrize("role", list(TOOLS))
def test_roles_match_the_registries(role):
    bin_dir = os.environ.get("PB_BIN_DIR")
    binary = Path(bin_dir or "") / TOOLS[role]
    if not bin_dir or not binary.exists():
        pytest.skip("PB_BIN_DIR with the built bench-* tools is needed to read the registries")
    listing = subprocess.run([str(binary), "--list"], capture_output=True, text=True, timeout=120, check=True).stdout
    section = re.search(
        r"^variants[^\n]*--variant\):\n(.*?)(?:\n\n|\n[a-z]|\Z)",
        listing,
        re.DOTALL | re.MULTILINE,
    )
    assert section, listing[:400]
    names = [line.split()[0] for line in section.group(1).splitlines() if line.strip()]
    missing = [n for n in names if n not in common.ROLES[role]]
    gone = [n for n in common.ROLES[role] if n not in names]
    assert not missing and not gone, f"charts/common.py ROLES['{role}']: add {missing}, remove {gone}"
    assert names == common.ROLES[role], "keep the registry's order (a variant's colour is its position)"


# A default run of each tool (what a user gets without flags), as the report draws it: throttle with
# its `--events` (the timelines and worst seconds), atomics `--quick` (its default matrix takes
# minutes on a shared 2-core host; the charts are the same kind, fewer points).
DEFAULT_RUN_FLAGS = {"throttle": ["--events", "{out}/events.csv"], "atomics": ["--quick"]}


@pytest.fixture(scope="module")
def default_runs(tmp_path_factory) -> dict[str, list[str]]:
    bin_dir = os.environ.get("PB_BIN_DIR")
    if not bin_dir or not all((Path(bin_dir) / tool).exists() for tool in TOOLS.values()):
        pytest.skip("PB_BIN_DIR with the built bench-* tools is needed for their default runs")
    root = tmp_path_factory.mktemp("default-runs")

    def run(role: str) -> None:
        out = root / role
        flags = [f.format(out=out) for f in DEFAULT_RUN_FLAGS.get(role, [])]
        out.mkdir()
        subprocess.run(
            [str(Path(bin_dir) / TOOLS[role]), "--quiet", "--output", str(out), *flags],
            check=True,
            capture_output=True,
            timeout=900,
        )

    # Two at a time, a core each: the charts read what the runs hold, not their timings.
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(run, TOOLS))
    return {role: [str(root / role)] for role in TOOLS}


def test_no_text_overlaps_or_leaves_any_chart_of_each_tools_default_run(default_runs, tmp_path):
    from patternbench_analysis.report import MAX_TIMELINES

    seen = []
    original = Figure.savefig

    def checking_savefig(self, fname, *args, **kwargs):
        if str(fname).endswith(".png"):
            seen.append((Path(str(fname)).stem, text_overlaps(self)))
        # Measured on the figure, not written (as in render_and_check).

    Figure.savefig = checking_savefig
    try:
        for role, folders in default_runs.items():
            render_all(load_folders([Path(f) for f in folders]), tmp_path / role, MAX_TIMELINES, log=lambda m: None)
    finally:
        Figure.savefig = original
    drawn = {name.split("-")[0] for name, _ in seen}
    assert drawn >= set(TOOLS), drawn
    bad = {name: overlaps[:4] for name, overlaps in seen if overlaps}
    assert not bad, bad


def test_control_a_label_placed_on_another_is_moved_and_a_crowded_one_is_caught():
    """place_labels moves a label off another and keeps it in its panel; without it (the control)
    the same two labels overlap, and a label pushed off the figure is reported."""
    for placed in (True, False):
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.set_xlim(0, 10)
        ax.set_ylim(0, 10)
        texts = [ax.text(5, 5, "first label here"), ax.text(5.1, 5.05, "second label here")]
        if placed:
            common.place_labels(ax, texts, ([5, 5.1], [5, 5.05]))
            common.place_pending_labels(fig)
        assert bool(text_overlaps(fig)) is not placed
        plt.close(fig)
