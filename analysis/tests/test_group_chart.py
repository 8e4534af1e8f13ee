"""The group chart renders from a fixture made by bench-group (--quick --seeds 2 --flows 50)."""

from pathlib import Path

from test_plot import check_files

from patternbench_analysis.charts import group
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import load_folders


def test_group_chart_has_every_variant_per_scenario(tmp_path):
    folders = load_folders([Path(__file__).parent / "fixtures" / "group"])
    charts = {c.name: c for c in render_all(folders, tmp_path, log=lambda m: None)}
    chart = charts["group-cost"]
    ids, text = check_files(chart)
    for scenario in ["login", "login-per-movie", "flaky", "heavy-tail"]:
        for variant in group.VARIANTS:
            # drawn, or drawn once with the variants it equals, under a label naming it
            assert f"{scenario}:{variant}" in chart.series, (scenario, variant)
            assert f"series:{scenario}-{variant}" in ids or ("(identical)" in text and variant in text), variant
    assert "p99 end-to-end latency (ms)" in text and "work after a failure (ms)" in text
    assert "frames missed" in text and "thr blocked" in text and "run group-" in text
