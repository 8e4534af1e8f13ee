"""The readiness chart renders from a fixture made by bench-readiness (--quick --seeds 2 --globals eager)."""

from pathlib import Path

from test_plot import check_files

from patternbench_analysis.charts.common import ROLES
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import load_folders


def test_readiness_chart_has_every_variant_per_scenario(tmp_path):
    folders = load_folders([Path(__file__).parent / "fixtures" / "readiness"])
    charts = {c.name: c for c in render_all(folders, tmp_path, log=lambda m: None)}
    chart = charts["readiness-launch"]
    ids, text = check_files(chart)
    for scenario in ["main-app", "share-extension", "nse"]:
        # ROLES lists bench-readiness's registry in order (test_chart_legibility checks it).
        for variant in ROLES["readiness"]:
            assert f"series:{scenario}-{variant}" in ids, (scenario, variant)
    assert (
        "missed frames (count)" in text
        and "wasted polite slots (count)" in text
        and "polite backlog drained after" in text
        and "globals eager" in text
    )
    assert "overtakes" in text and "run readiness-" in text
    # In nse three variants drain at one point: the label names each (identical ones as one), not only
    # how many (the earlier "0 overtakes (3 variants)" left two of them hidden under the third's marker).
    assert "signal-2018 = article-lightweight (identical): 0 overtakes" in text and "frame-aware: 0 overtakes" in text
    assert "variants)" not in text
