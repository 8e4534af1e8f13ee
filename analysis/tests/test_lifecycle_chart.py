"""The lifecycle chart renders from fixtures made by bench-lifecycle (sim --quick, and live)."""

from pathlib import Path

from test_plot import check_files

from patternbench_analysis.charts.common import slug
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import load_folders

FIXTURES = Path(__file__).parent / "fixtures"


def test_lifecycle_chart_has_every_variant_scenario_and_the_live_kills(tmp_path):
    folders = load_folders([FIXTURES / "lifecycle", FIXTURES / "lifecycle-live"])
    charts = {c.name: c for c in render_all(folders, tmp_path, log=lambda m: None)}
    assert set(charts) == {"lifecycle-outcomes"}
    ids, text = check_files(charts["lifecycle-outcomes"])
    for scenario in ["everyday", "memory-pressure", "scene-thrash", "slow-device"]:
        for variant in ["naive", "article", "signal", "ours"]:
            for metric in ["acked_lost", "crash_free_sessions_pct"]:
                assert f"series:{slug(f'{scenario}:{variant}:{metric}')}" in ids, (scenario, variant, metric)
    for durability in ["in-place", "rename", "rename-fsync", "sqlite-wal"]:
        assert f"series:{slug(f'kill-during-save:{durability}:corrupt_launches')}" in ids, durability
    assert "loss, kills and sync" in text and "kill-during-save (live)" in text and "torn" in text


def test_sim_only_folder_draws_no_live_column(tmp_path):
    charts = {c.name: c for c in render_all(load_folders([FIXTURES / "lifecycle"]), tmp_path, log=lambda m: None)}
    ids, text = check_files(charts["lifecycle-outcomes"])
    assert "kill-during-save (live)" not in text
    assert not any("kill-during-save" in i for i in ids)
