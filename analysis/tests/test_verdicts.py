"""The one rule (verdicts.py): its statistics on known samples, and on committed real run pairs
(fixtures/verdicts/, see its README): same-binary A/A pairs must come out clean, the injected 25 %
slowdown of pthread-mutex must be found, with one run a side (against the committed noise floor
learned from *other* A/A pairs) and with interleaved rounds (run medians)."""

from __future__ import annotations

import json

import pytest
import scipy.stats
from conftest import FIXTURES, rewrite_results

from patternbench_analysis import verdicts as V
from patternbench_analysis.compare import (
    BETTER,
    CHANGED,
    INCONCLUSIVE,
    SAME,
    WORSE,
    Options,
    compare,
)
from patternbench_analysis.results import load_folders

CORPUS = FIXTURES / "verdicts"
FLAGGED = (WORSE, BETTER, CHANGED)


def test_mann_whitney_matches_scipy_exact_and_asymptotic():
    cases = [
        ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]),
        ([1.5, 2.2, 0.3, 4, 5.1, 9], [6, 0.7, 8, 9.5, 10, 2.9, 3.3]),
        ([1, 2, 2, 3, 4, 5], [2, 6, 7, 8, 9, 10]),
        (list(range(30)), [x + 10.5 for x in range(30)]),
    ]
    for base, new in cases:
        ties = len(set(base + new)) < len(base + new)
        method = "exact" if not ties and max(len(base), len(new)) <= V.EXACT_MAX else "asymptotic"
        expected = scipy.stats.mannwhitneyu(new, base, alternative="two-sided", method=method).pvalue
        assert V.mann_whitney(base, new)[1] == pytest.approx(expected, rel=1e-12)


def test_hodges_lehmann_interval_and_benjamini_hochberg_match_references():
    assert V.hodges_lehmann([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) == (5, 2, 8)
    assert V._critical(3, 3) == -1  # 3 v 3: no 95 % interval exists
    assert V._critical(8, 8) == 13  # the tabulated two-sided 5 % critical value of U for 8 v 8
    p = [0.01, 0.04, 0.03, 0.5, 0.002]
    assert V.benjamini_hochberg(p) == pytest.approx(list(scipy.stats.false_discovery_control(p)))


def test_one_run_a_side_needs_a_noise_floor_and_run_medians_do_not():
    base, slow = [2.0 + i * 0.01 for i in range(10)], [(2.0 + i * 0.01) * 1.25 for i in range(10)]
    ev = V.evidence({"a": base}, {"b": slow}, "live")
    V.adjust([ev])
    assert ev.unit == V.REPS and V.decide(ev, "lower_is_better").verdict == INCONCLUSIVE
    assert "run interleaved / more runs" in ev.why
    assert V.decide(ev, "lower_is_better", floor=0.05).verdict == WORSE
    assert V.decide(ev, "lower_is_better", floor=0.40).verdict == SAME  # the floor is above the change
    runs = {f"r{i}": [2.0 + i * 0.01, 2.1] for i in range(6)}
    ev = V.evidence(runs, {f"n{k}": [v * 1.25 for v in vs] for k, vs in runs.items()}, "live")
    V.adjust([ev])
    assert ev.unit == V.RUNS and ev.n_base == 6 and V.decide(ev, "lower_is_better", 0.15).verdict == WORSE
    assert "6 / 6 run medians" in ev.why and "min effect 15%" in ev.why


def test_deterministic_cells_change_on_any_seed_difference():
    ev = V.evidence({"a": [1.0, 2.0, 3.0]}, {"b": [1.0, 2.0, 3.5]}, "sim", [1, 2, 3], [1, 2, 3])
    assert V.decide(ev, "lower_is_better").verdict == CHANGED and "1 of 3 seeds differ" in ev.why  # medians equal
    ev = V.evidence({"a": [1.0, 2.0, 3.0]}, {"b": [1.0, 2.5, 3.0]}, "sim", [1, 2, 3], [1, 2, 3])
    assert V.decide(ev, "lower_is_better").verdict == WORSE
    same = V.evidence({"a": [1.0, 2.0, 3.0]}, {"b": [1.0, 2.0, 3.0]}, "sim", [1, 2, 3], [1, 2, 3])
    assert V.decide(same, "lower_is_better").verdict == SAME


# ---------------------------------------------------------------- the real corpus


def _pair(name: str) -> tuple[list, list]:
    spec = json.loads((CORPUS / "pairs.json").read_text())[name]
    return (load_folders([CORPUS / f for f in spec["base"]]), load_folders([CORPUS / f for f in spec["new"]]))


def _floor(name: str):
    """The floor file a pair is judged against: the one learned on runs of its own shape (pairs.json)."""
    return CORPUS / json.loads((CORPUS / "pairs.json").read_text())[name].get("floor", "noise-floor.json")


def _judge(name: str):
    base, new = _pair(name)
    return compare(base, new, Options(noise_floor=str(_floor(name)), thresholds=str(CORPUS / "thresholds.json")))


def _flagged(result, keep=lambda c: True) -> tuple[int, int]:
    judged = [c for c in result.cells if keep(c) and c.mode == "live"]
    return sum(1 for c in judged if c.verdict in FLAGGED), len(judged)


def _single_thread_mutex(result, keep=lambda c: True) -> list:
    """The cells an injected pthread-mutex slowdown must move: its single-thread cpu_ns_per_op."""
    return [
        c
        for c in result.cells
        if c.variant == "pthread-mutex" and c.metric == "cpu_ns_per_op" and c.factors.get("threads") == "1" and keep(c)
    ]


@pytest.mark.parametrize(
    "name", ["aa-single", "aa-slice", "aa-slice-2", "aa-rounds", "aa-short", "aa-quiet26", "aa-loaded26"]
)
def test_same_binary_pairs_come_out_clean(name):
    """The A/A control: two runs of one binary (held out: not the pairs the floor was learned from)."""
    result = _judge(name)
    flagged, judged = _flagged(result)
    assert judged >= 20
    assert flagged <= 0.01 * judged, [
        (c.variant, c.metric, c.factors, c.why) for c in result.cells if c.verdict in FLAGGED
    ]


@pytest.mark.parametrize(
    "name",
    [
        "injected-single",
        "injected-slice",
        "injected-rounds",
        "injected-short",
        "injected-short-2",
        "injected-quiet26",
        "injected-quiet26-2",
        "injected-loaded26",
        "injected-loaded26-2",
    ],
)
def test_the_injected_slowdown_is_found(name):
    """PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex (every fourth locked operation takes the
    lock again and repeats the critical-section work: +25 % locked work): every single-thread
    cpu_ns_per_op cell of pthread-mutex, with and without critical-section work, is worse; other
    variants' cells stay (≤ 2 %) unflagged."""
    result = _judge(name)
    target = _single_thread_mutex(result, lambda c: c.mode == "live")
    # Most of these runs were measured under load (10–16 per core; loaded26: two busy loops holding both
    # cores, load 2–12): a cell whose repetitions scatter more than the floor widens its bar (rule 3), so
    # on a loaded default run at least 4 of the 6 are found (the loaded target), and none is ever called
    # better. On the quiet host (quiet26: nothing else running) every one of the 6 is found.
    found = [c for c in target if c.verdict == WORSE]
    needed = len(target) if name.startswith("injected-quiet") or len(target) != 6 else 4
    assert target and len(found) >= needed, [(c.factors, c.scenario, c.verdict, c.why) for c in target]
    assert all(c.verdict in (WORSE, INCONCLUSIVE, SAME) for c in target)
    assert all(c.ci_low_pct > 5 for c in found), [(c.factors, c.scenario, c.ci_low_pct) for c in found]
    if name not in ("injected-slice", "injected-rounds"):  # default runs: both critical-section works
        assert {c.factors.get("cs_work_ns") for c in target} == {"0", "50"}
    flagged, judged = _flagged(result, lambda c: c.variant != "pthread-mutex" and "ratio_to" not in c.metric)
    assert flagged <= 0.02 * judged


def test_a_change_inside_the_noise_floor_is_not_called_with_one_run_a_side():
    """The control of the detection above: the earlier injection (an empty extra acquisition every
    fourth operation, recorded in default/DL1) added only ~5 % to the cells with 50 ns of
    critical-section work; A/A pairs of that shape moved by up to 6.7 % (the committed floor), so
    one run a side cannot call it: the interval is above 0 but not above the floor, and the verdict
    says so."""
    result = _judge("diluted-single")
    diluted = _single_thread_mutex(result, lambda c: c.factors.get("cs_work_ns") == "50")
    assert diluted and all(c.verdict == SAME and 0 < c.change_pct < 100 * c.noise_floor for c in diluted)
    assert all("noise floor" in c.why for c in diluted)


def test_without_the_noise_floor_one_run_a_side_is_inconclusive_not_worse(tmp_path):
    """The control of the floor: the same injected pair with no floor cannot call the slowdown."""
    base, new = _pair("injected-single")
    (tmp_path / "empty.json").write_text(json.dumps({"version": 2, "floors": []}))
    result = compare(
        base, new, Options(noise_floor=str(tmp_path / "empty.json"), thresholds=str(CORPUS / "thresholds.json"))
    )
    target = _single_thread_mutex(result, lambda c: c.mode == "live")
    assert target and all(c.verdict in (INCONCLUSIVE, SAME) for c in target)
    assert any(c.verdict == INCONCLUSIVE for c in target)
    assert result.counts()[WORSE] == 0


def test_outputs_warn_where_they_should(tmp_path):
    """A serialized co-scheduling probe, shapes that moved together, and another CPU (whose live cells
    are then `not comparable`, never better or worse); the control: the same pair on one CPU judges them."""
    result = _judge("aa-slice")
    assert any("took turns (serialized)" in w for w in result.warnings)
    import shutil

    for side in ("S3", "S4"):
        shutil.copytree(CORPUS / "slice" / side, tmp_path / side)
    doc = json.loads((tmp_path / "S4" / "atomics.json").read_text())
    doc["metadata"]["host"]["cpu_family"] = 26
    (tmp_path / "S4" / "atomics.json").write_text(json.dumps(doc))
    moved = compare(
        load_folders([tmp_path / "S3"]),
        load_folders([tmp_path / "S4"]),
        Options(noise_floor=str(CORPUS / "noise-floor-v1.json")),
    )
    assert any("different CPU fingerprints" in w and "family 26" in w for w in moved.warnings)
    live = [c for c in moved.cells if c.mode == "live"]
    assert live and all(c.verdict == "not comparable" for c in live)
    assert all(c.verdict != "not comparable" for c in result.cells)


def test_loads_that_differ_markedly_are_warned(tmp_path):
    """Run metadata's load_average_1m_start/_end: markedly different loads are warned with both
    numbers (the gate's HostLoadCheck rule); close or saturated loads, and files written before the
    field (the committed corpus), are not."""
    import shutil

    def side(name: str, loads: tuple[float, float] | None):
        shutil.copytree(CORPUS / "slice" / "S3", tmp_path / name)
        path = tmp_path / name / "atomics.json"
        doc = json.loads(path.read_text())
        if loads is not None:
            doc["metadata"]["load_average_1m_start"], doc["metadata"]["load_average_1m_end"] = loads
        path.write_text(json.dumps(doc))
        rewrite_results(tmp_path / name, "atomics", lambda r: r.update(run_id=f"{r['run_id']}-{name}"))
        doc = json.loads(path.read_text())
        doc["run_id"] = f"{doc['run_id']}-{name}"
        path.write_text(json.dumps(doc))
        return load_folders([tmp_path / name])

    def warnings(base, new):
        return [
            w
            for w in compare(base, new, Options(noise_floor=str(CORPUS / "noise-floor-v1.json"))).warnings
            if "1-minute load average" in w
        ]

    idle, busy = side("idle", (0.4, 0.6)), side("busy", (5.1, 6.3))
    marked = warnings(idle, busy)
    assert len(marked) == 1 and "0.50 (0.40–0.60) in BASE" in marked[0] and "5.70 (5.10–6.30) in NEW" in marked[0], (
        marked
    )
    assert warnings(idle, side("close", (0.6, 0.8))) == []
    assert warnings(side("s20", (20.0, 20.0)), side("s25", (25.0, 25.0))) == []  # both saturated
    assert warnings(idle, side("old", None)) == []  # a file from before the field


# ---------------------------------------------------------------- noise floors per variant


def test_a_floor_is_per_variant_so_a_noisy_variant_does_not_blind_another(tmp_path):
    """Version 2 learns one floor per variant of a shape: a +40 % A/A wobble of one variant leaves the
    other's floor at its own 2 %. The control: a version-1 file holds one floor per shape, the
    largest over every variant, which is still read and applies to every variant of the shape."""
    shape = {"threads": "1", "cs_work_ns": "50"}
    learned = V.NoiseFloors()
    learned.learn(V.floor_key("cpu", "atomics", "cpu_ns_per_op", shape, "dispatch-queue"), [0.40, -0.1], "A1 vs A2")
    learned.learn(V.floor_key("cpu", "atomics", "cpu_ns_per_op", shape, "pthread-mutex"), [0.03, -0.015], "A1 vs A2")
    learned.learn(V.floor_key("cpu", "atomics", "cpu_ns_per_op", shape, "nslock"), [0.001], "A1 vs A2")
    learned.save(tmp_path / "v2.json")
    v2 = V.NoiseFloors.load(tmp_path / "v2.json")
    assert v2.version == 2 and json.loads((tmp_path / "v2.json").read_text())["version"] == 2
    assert v2.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "pthread-mutex") == 0.03
    assert v2.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "dispatch-queue") == 0.40
    # Never below the median of the shape's variant floors (0.03): one pair's few cells can undershoot.
    assert v2.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "nslock") == 0.03
    assert v2.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "mutex") is None  # never learned: no floor
    # A 25 % slowdown of pthread-mutex clears its own floor, not the shape's largest.
    base, slow = [2.0, 2.01, 2.02], [2.5, 2.51, 2.52]
    ev = V.evidence({"a": base}, {"b": slow}, "live")
    V.adjust([ev])
    own = v2.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "pthread-mutex")
    assert V.decide(ev, "lower_is_better", floor=own).verdict == WORSE
    v1 = {"rule": V.RULE, "floors": [{"key": V.floor_key("cpu", "atomics", "cpu_ns_per_op", shape), "floor": 0.40}]}
    (tmp_path / "v1.json").write_text(json.dumps(v1))
    old = V.NoiseFloors.load(tmp_path / "v1.json")
    assert old.version == 1
    shape_floor = old.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "pthread-mutex")
    assert shape_floor == 0.40 and old.floor_for("cpu", "atomics", "cpu_ns_per_op", shape, "nslock") == 0.40
    assert V.decide(ev, "lower_is_better", floor=shape_floor).verdict == SAME  # blinded by the shape's largest


def test_floor_files_of_an_unknown_version_are_refused_and_old_ones_are_not_learned_into(tmp_path):
    from patternbench_analysis.results import InputError

    (tmp_path / "v3.json").write_text(json.dumps({"version": 3, "floors": []}))
    with pytest.raises(InputError, match="format version 3, this version reads 1 to 2"):
        V.NoiseFloors.load(tmp_path / "v3.json")
    (tmp_path / "bad.json").write_text(json.dumps({"version": "2", "floors": []}))
    with pytest.raises(InputError, match="format version 2"):
        V.NoiseFloors.load(tmp_path / "bad.json")
    # A file the user named that is not there, or an entry without a text key and a number, is an
    # input error (as in VerdictRule.loadFloors); the default's absence is no floors.
    with pytest.raises(InputError, match=r"absent\.json: no such file"):
        V.NoiseFloors.load(tmp_path / "absent.json", required=True)
    assert V.NoiseFloors.load(tmp_path / "absent.json").floors == {}
    for entry in ({"key": 5, "floor": 0.1}, {"key": "k"}, {"key": "k", "floor": "0.1"}, {"key": "k", "floor": True}):
        (tmp_path / "entry.json").write_text(json.dumps({"version": 2, "floors": [entry]}))
        with pytest.raises(InputError, match="unreadable"):
            V.NoiseFloors.load(tmp_path / "entry.json")
    (tmp_path / "v1.json").write_text(json.dumps({"floors": [{"key": "k", "floor": 0.1}]}))
    with pytest.raises(InputError, match=r"version 1 .*learn into a new file"):
        V.NoiseFloors.load(tmp_path / "v1.json").learn("k|variant=x", [0.1], "pair")


def test_one_floor_per_shape_blinds_the_injected_slowdown_on_the_short_default():
    """Why floors are per variant, on real runs: the same ten A/A pairs as noise-floor.json,
    folded into one floor per shape (format 1, the largest change over every variant), put the
    single-thread cpu_ns_per_op floors at dispatch-queue's ~30 %, above the injected +25 %; the
    per-variant floors find it (test_the_injected_slowdown_is_found[injected-short])."""
    base, new = _pair("injected-short")
    result = compare(
        base,
        new,
        Options(noise_floor=str(CORPUS / "noise-floor-shape.json"), thresholds=str(CORPUS / "thresholds.json")),
    )
    target = _single_thread_mutex(result)
    assert len(target) == 6 and sum(c.verdict == WORSE for c in target) < 6, [
        (c.verdict, c.noise_floor) for c in target
    ]
    assert all(c.noise_floor is not None and c.noise_floor > 0.2 for c in target if c.verdict != WORSE)


@pytest.mark.parametrize("name", ["aa-single", "injected-single", "aa-short", "injected-short"])
def test_the_printed_change_agrees_in_sign_with_the_medians(name):
    """The change printed is the medians' (its sign agrees with them in every cell of real pairs), and a
    directed verdict never contradicts it. The control: the estimate judged (after the cell's common
    shift) points the other way in some cells, so printing it instead would fail this test."""
    result = _judge(name)
    live = [c for c in result.cells if c.mode == "live" and c.change_pct is not None]
    for c in live:
        delta = c.new_median - c.base_median
        assert (c.change_pct > 0) == (delta > 0) and (c.change_pct < 0) == (delta < 0), (c.variant, c.metric)
        if c.verdict in (WORSE, BETTER):
            assert c.estimate_pct is not None and c.estimate_pct * c.change_pct > 0
    against = [c for c in live if c.estimate_pct is not None and c.estimate_pct * c.change_pct < 0]
    assert against, "the control: some estimates point against the medians"
    assert all(c.common_shift_pct is not None for c in against)


def test_a_side_noisier_than_the_floor_was_learned_at_is_inconclusive(tmp_path):
    """A floor vouches for runs like its learning pairs: a side at a higher load per core (or, with
    several threads, a lower co-scheduling probe) makes a cell that would be flagged inconclusive.
    The control: the same cell at the learned load is worse."""
    ev = V.evidence({"a": [3.0, 3.1, 3.2]}, {"b": [4.0, 4.1, 4.2]}, "live")
    V.adjust([ev])
    assert V.decide(ev, "lower_is_better", floor=0.1, noisier=V.noisier_than_floor((2.0, 2.4), 2.0)).verdict == WORSE
    reason = V.noisier_than_floor((2.0, 5.0), 2.0)
    assert "NEW ran at load 5.00 per core" in reason
    decided = V.decide(ev, "lower_is_better", floor=0.1, noisier=reason)
    assert decided.verdict == INCONCLUSIVE and "noisier than the floor" in decided.why
    assert V.noisier_than_floor((1.0, 1.0), 2.0, (0.9, 0.2), 0.9, several_threads=True).startswith("NEW's threads")
    assert V.noisier_than_floor((1.0, 1.0), 2.0, (0.9, 0.2), 0.9, several_threads=False) == ""
    assert V.noisier_than_floor((9.0, 9.0), None) == ""  # a floor that records no conditions
    floors = V.NoiseFloors()
    floors.learned_under(3.0, 0.5)
    floors.learned_under(5.0, 0.8)
    floors.learn("k", [0.05], "A1 vs A2")
    floors.save(tmp_path / "f.json")
    assert V.NoiseFloors.load(tmp_path / "f.json").learned_at == {"load_per_core": 5.0, "co_scheduled": 0.5}
