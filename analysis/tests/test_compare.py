"""`compare BASE NEW`: change in %, its interval, the one rule's verdict with the metric's direction; `report BASE NEW`.

These tests scale a copy of one real run, so each side is one run: by the rule (verdicts.py) a change
between single runs counts only against a noise floor learned from an A/A pair. `floors` learns one
from the frozen run against a renamed copy of itself (a floor of 0: the pair is identical), so the
scaled cells are judged by their repetitions alone; without a floor they are `inconclusive`.
The rule on real A/A and injected pairs is tested in test_verdicts.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import (
    FIXTURES,
    assert_one_line_error,
    copy_folder,
    rewrite_results,
    run_cli,
)

from patternbench_analysis.compare import (
    BETTER,
    INCONCLUSIVE,
    SAME,
    WORSE,
    Options,
    compare,
    learn_noise_floor,
)
from patternbench_analysis.results import load_folders

# A real live run, frozen: the atomics baseline as committed at 3ed1eb4 (the gated uncontended slice,
# 10 repetitions per cell). Its noise is what these tests rely on, so it must not follow the baseline
# when that is re-recorded. In it, mutex's CPU time per op varies by ~1.3 % over its 10 repetitions, pthread-mutex's
# wall-clock ns/op by ~30 % (6 to 14 ns): the same +10 % is a clear change in one and noise in the other.
STEADY, NOISY = "mutex", "pthread-mutex"
COMPARE_SOURCE = FIXTURES / "compare-source"


def baseline_atomics(dest: Path) -> Path:
    """A frozen atomics baseline: a real live run, 10 repetitions per cell (real noise)."""
    dest.mkdir(parents=True)
    for suffix in ("csv", "json"):
        shutil.copy(COMPARE_SOURCE / f"atomics.{suffix}", dest / f"atomics.{suffix}")
    return dest


def renamed(folder: Path, run_id: str) -> None:
    rewrite_results(folder, "atomics", lambda r: r.update(run_id=run_id))
    doc = json.loads((folder / "atomics.json").read_text())
    doc["run_id"] = run_id
    (folder / "atomics.json").write_text(json.dumps(doc))


def identified(folder: Path) -> Path:
    """The frozen run predates CPU fingerprints; a floor belongs to one CPU, so name one (a made-up CPU
    no committed floor knows)."""
    doc = json.loads((folder / "atomics.json").read_text())
    doc["metadata"]["host"].update(
        cpu_vendor="TestVendor", cpu_family=0, cpu_model_number=0, cpu_stepping=0, cpu_microcode="0x0"
    )
    (folder / "atomics.json").write_text(json.dumps(doc))
    return folder


def scaled(folder: Path, variant: str, metric: str, factor: float) -> None:
    def change(record):
        if record["metric"] == metric and record["variant"] == variant:
            record["value"] = repr(float(record["value"]) * factor)

    rewrite_results(folder, "atomics", change)


def cell_of(result, variant, metric):
    return next(c for c in result.cells if c.metric == metric and c.variant == variant)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    base = identified(baseline_atomics(root / "base"))
    new = identified(baseline_atomics(root / "new"))
    renamed(new, "atomics-20261122T000000Z-0001")
    scaled(new, STEADY, "cpu_ns_per_op", 1.10)  # 10 % more CPU per op: worse (lower is better)
    scaled(new, "spinlock", "cpu_ns_per_op", 0.90)  # 10 % less: better
    scaled(new, NOISY, "ns_per_op", 1.10)  # the same step inside 30 % noise: not detectable
    return base, new


@pytest.fixture(scope="module")
def floors(tmp_path_factory):
    """A noise floor file learned from an A/A pair: the frozen run against a renamed copy of itself."""
    root = tmp_path_factory.mktemp("floors")
    a, b = identified(baseline_atomics(root / "a")), identified(baseline_atomics(root / "b"))
    renamed(b, "atomics-20261122T000000Z-00aa")
    path, empty = root / "noise-floor.json", root / "empty.json"
    empty.write_text(json.dumps({"version": 2, "floors": []}))
    base, new = load_folders([a]), load_folders([b])
    assert learn_noise_floor(compare(base, new, Options(noise_floor=str(empty))), base, new, path) > 0
    return path


def test_a_real_change_is_found_with_its_size_and_direction(pair, floors):
    result = compare(*[load_folders([p]) for p in pair], Options(noise_floor=str(floors)))
    slower = cell_of(result, STEADY, "cpu_ns_per_op")
    assert slower.verdict == WORSE and slower.n_base == slower.n_new == 10
    assert slower.change_pct == pytest.approx(10.0, abs=1e-6)  # a scaled copy: the medians scale exactly
    assert 0 < slower.ci_low_pct <= 10.0 <= slower.ci_high_pct
    assert cell_of(result, "spinlock", "cpu_ns_per_op").verdict == BETTER
    noisy = cell_of(result, NOISY, "ns_per_op")
    assert (
        noisy.verdict == SAME and noisy.change_pct == pytest.approx(10.0) and noisy.ci_low_pct < 0 < noisy.ci_high_pct
    )
    touched = {(STEADY, "cpu_ns_per_op"), ("spinlock", "cpu_ns_per_op"), (NOISY, "ns_per_op")}
    untouched = [c for c in result.cells if (c.variant, c.metric) not in touched]
    assert untouched and all(c.verdict in (SAME, "host condition") and c.change_pct == 0 for c in untouched)


def test_one_run_a_side_without_a_noise_floor_is_inconclusive(pair, tmp_path):
    """The control: the same +10 % with no floor for this CPU cannot be told from run-to-run noise."""
    (tmp_path / "none.json").write_text(json.dumps({"version": 2, "floors": []}))
    result = compare(*[load_folders([p]) for p in pair], Options(noise_floor=str(tmp_path / "none.json")))
    slower = cell_of(result, STEADY, "cpu_ns_per_op")
    assert slower.verdict == INCONCLUSIVE and "run interleaved / more runs" in slower.why
    assert result.counts()[WORSE] == result.counts()[BETTER] == 0
    assert any("inconclusive" in w and "--learn-noise-floor" in w for w in result.warnings)


def test_the_same_results_show_no_change_and_the_interval_covers_zero(tmp_path):
    base = baseline_atomics(tmp_path / "base")
    new = baseline_atomics(tmp_path / "new")
    renamed(new, "atomics-20261122T000000Z-0002")  # a copy under another run id: the folder itself is refused
    result = compare(load_folders([base]), load_folders([new]))
    assert result.cells and all(c.verdict in (SAME, "host condition") for c in result.cells)


def test_noise_inside_the_interval_is_no_detectable_change(tmp_path, floors):
    """Against a floor (here 0), the whole interval must clear the 1 % minimum effect: a 0.5 % shift does
    not, 5 % does (mutex's CPU time varies by ~1.3 % over its 10 repetitions)."""
    for factor, expected in ((1.005, SAME), (1.05, WORSE)):
        base = identified(baseline_atomics(tmp_path / f"base{factor}"))
        new = identified(baseline_atomics(tmp_path / f"new{factor}"))
        renamed(new, "atomics-20261122T000000Z-0003")
        scaled(new, STEADY, "cpu_ns_per_op", factor)
        result = compare(load_folders([base]), load_folders([new]), Options(noise_floor=str(floors)))
        assert cell_of(result, STEADY, "cpu_ns_per_op").verdict == expected


def test_compare_of_one_folder_with_itself_is_refused(pair):
    """A run against itself shows no change by construction; the control: two runs are compared."""
    result = run_cli("compare", pair[0], pair[0])
    assert_one_line_error(result)
    assert "same run" in result.stderr
    assert run_cli("compare", pair[0], pair[1]).returncode == 0


def test_compare_names_each_sides_host_build_and_load(pair):
    result = compare(*[load_folders([p]) for p in pair])
    for label in ("BASE", "NEW"):
        (run,) = result.sides[label]
        assert "logical cores" in run["host"] and "build" in run["build"]
    md = run_cli("compare", *pair).stdout
    assert md.count("1-minute load average") == 2 and "at start" in md and "at end" in md


def test_host_health_metrics_are_conditions_never_worse_or_better(pair, floors):
    """co_scheduled_fraction and preemptions describe the machine: scaled by 30 % they stay conditions.
    The control: the same scaling of a code metric is judged."""
    base, new = pair
    moved = new.parent / "moved"
    shutil.copytree(new, moved)
    for metric in ("co_scheduled_fraction", "involuntary_ctx_switches", "ns_per_op"):
        scaled(moved, STEADY, metric, 1.3)
    result = compare(load_folders([base]), load_folders([moved]), Options(noise_floor=str(floors)))
    host = [c for c in result.cells if c.metric in ("co_scheduled_fraction", "involuntary_ctx_switches")]
    assert host and all(c.verdict == "host condition" for c in host)
    assert cell_of(result, STEADY, "ns_per_op").verdict == WORSE


def test_metric_directions():
    from patternbench_analysis.directions import HIGHER, HOST, LOWER, UNKNOWN, direction

    assert direction("atomics", "co_scheduled_fraction") == HOST
    assert direction("atomics", "involuntary_ctx_switches") == HOST
    assert direction("atomics", "voluntary_ctx_switches") == UNKNOWN  # the code's: a lock that sleeps
    assert direction("atomics", "ns_per_op") == LOWER and direction("atomics", "ops_per_s") == HIGHER
    assert direction("throttle", "hitch_ms_per_s") == LOWER and direction("throttle", "latency_p99_ms") == LOWER
    assert direction("atomics", "jain_fairness") == HIGHER and direction("throttle", "updates") == UNKNOWN


def test_compare_cli_writes_markdown_html_and_json(pair, floors, tmp_path):
    base, new = pair
    result = run_cli("compare", base, new, "-o", tmp_path / "cmp", "--noise-floor", floors)
    assert result.returncode == 0, result.stderr
    md = (tmp_path / "cmp/compare.md").read_text()
    assert "| worse |" in md and "| better |" in md and "interval (95 %" in md and "n base / new" in md
    assert "change of the medians" in md and "estimate judged" in md
    page = (tmp_path / "cmp/compare.html").read_text()
    assert page.count('data-verdict="worse"') == 1 and page.count('data-verdict="better"') == 1
    assert page.count('data-verdict="no detectable change"') > 100  # every cell, not only the changed ones
    doc = json.loads((tmp_path / "cmp/compare.json").read_text())
    assert doc["counts"]["worse"] == 1 and doc["counts"]["better"] == 1
    assert {
        "change_pct",
        "ci_low_pct",
        "ci_high_pct",
        "verdict",
        "n_base",
        "n_new",
        "direction",
        "why",
        "p_value",
        "p_adjusted",
        "sample_unit",
        "noise_floor",
    } <= set(doc["cells"][0])
    worse = next(c for c in doc["cells"] if c["verdict"] == "worse")
    assert "10 / 10 repetitions" in worse["why"] and "Mann–Whitney" in worse["why"] and "noise floor" in worse["why"]
    printed = run_cli("compare", base, new, "--format", "json", "--noise-floor", floors)
    assert json.loads(printed.stdout) == doc  # no resampling: the same numbers every time


def test_report_with_two_folders_compares_instead_of_pooling(pair, tmp_path):
    base, new = pair
    result = run_cli("report", base, new, "-o", tmp_path / "r")
    assert result.returncode == 0, result.stderr
    summary = (tmp_path / "r/summary.md").read_text()
    # One run a side of a CPU with no committed noise floor: the scaled cells are inconclusive, and it says so.
    assert "## Comparison: NEW against BASE" in summary and "| inconclusive |" in summary and "**Warning:**" in summary
    page = (tmp_path / "r/report.html").read_text()
    assert 'id="comparison"' in page
    assert "atomics-20261122T000000Z-0001" in summary.split("## What ran")[1]  # the report is NEW's ...
    what_ran = summary.split("## What ran")[1].split("## Hosts")[0]
    assert "atomics-20261121T075827Z-7fe1" not in what_ran  # ... not BASE and NEW pooled
    pooled = run_cli("report", base, new, "--pool", "-o", tmp_path / "p")
    assert pooled.returncode == 0 and "Comparison" not in (tmp_path / "p/summary.md").read_text()


def test_cells_in_one_folder_only_are_listed_not_dropped(tmp_path):
    base = copy_folder("run", tmp_path)
    result = compare(load_folders([base]), load_folders([FIXTURES / "sweep-max-age-60"]))
    assert result.only_in_base  # run/ has policies the sweep does not
    assert any(c.variant == "frame-budget" for c in result.cells)


def test_compare_refuses_bad_options_and_disjoint_folders(tmp_path):
    assert_one_line_error(
        run_cli("compare", FIXTURES / "run", FIXTURES / "shard-1", "--min-effect", "1.5"), "--min-effect"
    )
    atomics = baseline_atomics(tmp_path / "a")
    assert_one_line_error(run_cli("compare", atomics, FIXTURES / "shard-1"), "nothing to compare")
