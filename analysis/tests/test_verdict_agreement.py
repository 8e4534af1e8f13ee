"""One rule, two implementations: bench-gate (Swift, VerdictRule.swift) and `pb-analysis compare`
(Python, verdicts.py) must give the same verdict on every cell both judge, on committed real run
pairs (fixtures/verdicts/): one run a side against the committed noise floor, and interleaved
rounds (run medians). The control: the injected pairs must contain regressions, so agreement is
not agreement on "nothing happened" alone; and a gate given another noise floor must disagree.

bench-gate comes from `PB_BIN_DIR` (default .build/debug); when PB_BIN_DIR is set (CI) a missing
binary is a failure, otherwise a skip.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES

from patternbench_analysis.compare import Options, compare
from patternbench_analysis.results import load_folders

REPO = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("PB_BIN_DIR", ".build/debug"))
if not BIN_DIR.is_absolute():
    BIN_DIR = REPO / BIN_DIR
CORPUS = FIXTURES / "verdicts"
PAIRS = json.loads((CORPUS / "pairs.json").read_text())
GATE_TO_COMPARE = {
    "regression": {"worse"},
    "improvement": {"better"},
    "ok": {"no detectable change"},
    "inconclusive": {"inconclusive", "too few repetitions"},
    "not_comparable": {"not comparable"},
}


def bench_gate() -> Path:
    path = BIN_DIR / "bench-gate"
    if not (path.is_file() and os.access(path, os.X_OK)):
        if "PB_BIN_DIR" in os.environ:
            pytest.fail(f"{path} is not built (swift build); the agreement test needs it")
        pytest.skip(f"{path} is not built (swift build); PB_BIN_DIR names the folder")
    return path


def judge_both(name: str, tmp: Path, floor: Path | None = None) -> list[tuple[dict, str]]:
    """(gate's cell, compare's verdict) for every hardware cell the gate judged, against the pair's
    floor file (pairs.json's `floor`, learned on runs of the pair's own shape) unless told another."""
    spec = PAIRS[name]
    floor = floor or CORPUS / spec.get("floor", "noise-floor.json")
    copies = {}
    for folder in spec["base"] + spec["new"]:
        copies[folder] = tmp / folder
        shutil.copytree(CORPUS / folder, copies[folder])
    thresholds = CORPUS / "thresholds.json"
    args = [str(bench_gate()), *[str(copies[f]) for f in spec["new"]]]
    for f in spec["base"]:
        args += ["--ab-base", str(copies[f])]
    args += ["--no-baseline", "--thresholds", str(thresholds), "--noise-floor", str(floor), "--quiet"]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert run.returncode in (0, 1), run.stderr
    gate = json.loads((copies[spec["new"][0]] / "gate.json").read_text())
    result = compare(
        load_folders([copies[f] for f in spec["base"]]),
        load_folders([copies[f] for f in spec["new"]]),
        Options(noise_floor=str(floor), thresholds=str(thresholds)),
    )
    cells = {
        (c.workload, c.scenario, c.variant, json.dumps(c.factors, sort_keys=True), c.metric): c for c in result.cells
    }
    out = []
    for h in gate["comparison"]["hardware"]:
        key = (h["workload"], h["scenario"], h["variant"], json.dumps(h["factors"], sort_keys=True), h["metric"])
        assert key in cells, f"compare did not judge the gate's cell {key}"
        out.append((h, cells[key].verdict))
    return out


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_gate_and_compare_agree_on_every_cell_both_judge(name, tmp_path):
    judged = judge_both(name, tmp_path)
    assert len(judged) >= 30
    disagree = [
        (h["variant"], h["metric"], h["status"], verdict, h.get("why"))
        for h, verdict in judged
        if verdict not in GATE_TO_COMPARE[h["status"]]
    ]
    assert not disagree
    if name.startswith("injected"):  # the control: agreement includes the verdicts that matter
        assert any(h["status"] == "regression" and h["variant"] == "pthread-mutex" for h, _ in judged)


def test_a_gate_with_another_floor_would_disagree(tmp_path):
    """The control of the test itself: the gate judging the one-run injected pair without the noise
    floor gives other verdicts (inconclusive) than compare with it (worse, no detectable change), so
    agreement above is not agreement by construction."""

    def key(h):
        return (h["scenario"], h["variant"], h["metric"], json.dumps(h["factors"], sort_keys=True))

    (tmp_path / "empty.json").write_text(json.dumps({"version": 2, "floors": []}))
    without = {key(h): h["status"] for h, _ in judge_both("injected-single", tmp_path / "a", tmp_path / "empty.json")}
    with_floor = {key(h): verdict for h, verdict in judge_both("injected-single", tmp_path / "b")}
    differ = [k for k in without if without[k] == "inconclusive" and with_floor[k] != "inconclusive"]
    assert differ and all(without[k] == "inconclusive" for k in differ)
    assert any(with_floor[k] == "worse" and k[1] == "pthread-mutex" for k in differ)
