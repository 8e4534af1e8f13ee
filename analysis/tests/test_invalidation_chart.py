"""The invalidation chart renders from fixtures made by bench-invalidation (sim --quick, and live)."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from patternbench_analysis.charts.common import slug
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import load_folders

SVG = "{http://www.w3.org/2000/svg}"
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def chart(tmp_path_factory):
    folders = load_folders([FIXTURES / "invalidation", FIXTURES / "invalidation-live"])
    charts = {c.name: c for c in render_all(folders, tmp_path_factory.mktemp("charts"), log=lambda m: None)}
    assert set(charts) == {"invalidation-staleness-cost"}
    return charts["invalidation-staleness-cost"]


def test_files_are_valid(chart):
    assert chart.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(chart.png) as image:
        assert image.size[0] > 600 and image.size[1] > 300


def test_every_variant_scenario_and_mode_is_drawn(chart):
    root = ET.parse(chart.svg).getroot()
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    text = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    for scenario in ["foreground", "background-pushes", "concurrent-writers"]:
        for variant in ["signal", "signal-legacy", "no-invalidation", "change-log"]:
            for metric in ["stale_reads", "extra_store_reads"]:
                assert f"series:{slug(f'{scenario}:{variant}:sim:{metric}')}" in ids
    # The live fixture ran the default live scenario.
    assert f"series:{slug('concurrent-writers:signal:live:stale_reads')}" in ids
    assert "stale reads against their cost" in text and "missed" in text and "hatched = live" in text
    assert "run invalidation-" in text or "runs (2)" in text


def test_missed_invalidations_are_labelled_on_the_control(chart):
    text = " ".join("".join(e.itertext()) for e in ET.parse(chart.svg).getroot().iter(f"{SVG}text"))
    # The control never listens: every foreign commit is missed, and the bar says how many.
    assert text.count("missed") >= 3
