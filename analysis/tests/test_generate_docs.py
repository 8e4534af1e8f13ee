"""scripts/generate-docs: the docs' generated blocks are what it writes now from the registry and the
committed results, and its --check finds a block that drifted (the control, on a copy of the tree)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = "scripts/generate-docs"


def generate(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(root / SCRIPT), *args], cwd=root, capture_output=True, text=True, timeout=120
    )


def copy_of_the_tree(tmp_path: Path) -> Path:
    """What the script reads and writes, copied: the script, the registry, results/, README.md and docs/."""
    root = tmp_path / "tree"
    (root / "scripts").mkdir(parents=True)
    shutil.copy2(REPO / SCRIPT, root / SCRIPT)
    (root / "analysis" / "patternbench_analysis").mkdir(parents=True)
    shutil.copy2(REPO / "analysis/patternbench_analysis/workloads.json", root / "analysis/patternbench_analysis")
    shutil.copytree(REPO / "results", root / "results", ignore=shutil.ignore_patterns("runs", "nightly"))
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy2(REPO / "README.md", root / "README.md")
    return root


def test_every_generated_block_is_up_to_date():
    result = generate(REPO, "--check")
    assert result.returncode == 0, result.stderr
    assert "generated blocks are up to date" in result.stdout


def test_a_drifted_block_is_found_and_rewritten(tmp_path: Path):
    """The control: a workload dropped from README's tools table and a claim count edited by hand
    fail --check naming the files; a run without --check restores both, byte for byte."""
    root = copy_of_the_tree(tmp_path)
    readme = (root / "README.md").read_text(encoding="utf-8")
    gate_doc = (root / "docs/regression-gate.md").read_text(encoding="utf-8")
    assert generate(root, "--check").returncode == 0
    drifted = "\n".join(line for line in readme.splitlines() if "`bench-clock` |" not in line) + "\n"
    assert drifted != readme
    (root / "README.md").write_text(drifted, encoding="utf-8")
    (root / "docs/regression-gate.md").write_text(gate_doc.replace("| clock |", "| clocks |"), encoding="utf-8")
    result = generate(root, "--check")
    assert result.returncode == 1
    assert "README.md" in result.stderr and "docs/regression-gate.md" in result.stderr
    assert generate(root).returncode == 0
    assert (root / "README.md").read_text(encoding="utf-8") == readme
    assert (root / "docs/regression-gate.md").read_text(encoding="utf-8") == gate_doc


def test_a_block_that_selects_nothing_is_one_line_and_exit_65(tmp_path: Path):
    root = copy_of_the_tree(tmp_path)
    guide = root / "docs/bench-throttle.md"
    text = guide.read_text(encoding="utf-8")
    assert "scenario=storm-slow" in text
    guide.write_text(text.replace("scenario=storm-slow", "scenario=storm-slowww"), encoding="utf-8")
    result = generate(root, "--check")
    assert result.returncode == 65
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "docs/bench-throttle.md" in lines[0] and "selects no values" in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_the_claim_count_is_the_thresholds_files():
    t = json.loads((REPO / "results/thresholds.json").read_text(encoding="utf-8"))
    total = len(t["thresholds"]) + len(t["hardware_metrics"])
    assert f"holds **{total} claims**" in (REPO / "README.md").read_text(encoding="utf-8")


def test_the_readme_stays_a_front_door():
    """At most 300 lines (the measurement record lives in the guides), and its Quick start is the
    two commands CONTRIBUTING.md's "Test" section runs."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300, "README.md grew past 300 lines: move the detail into a guide"
    quick = readme.split("## Quick start", 1)[1].split("```", 2)[1]
    assert quick.strip().splitlines() == ["swift run bench-throttle", "swift test"]
