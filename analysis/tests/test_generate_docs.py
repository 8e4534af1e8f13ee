"""scripts/generate-docs: the docs' generated blocks are what it writes now from the registry and the
committed results, and its --check finds a block that drifted (the control, on a copy of the tree)."""

from __future__ import annotations

import itertools
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


RECORD_HEADER = "| date (UTC) | host | load (1 min) | build | command | figure | details |"


def measurement_record_problems(guide: str) -> list[str]:
    """What is wrong with a guide's "Measurement record": the section missing, or a row of its table
    without a date (or "not recorded"), a host, a load, a build or a command."""
    if "\n## Measurement record\n" not in guide:
        return ["no '## Measurement record' section"]
    section = guide.split("\n## Measurement record\n", 1)[1].split("\n## ", 1)[0]
    lines = section.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith("|")), len(lines))
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), lines[first:]))  # the first table
    if not rows:
        return []  # nothing measured on real hardware yet (a new workload's guide says so)
    problems = [] if rows[0] == RECORD_HEADER else [f"the table's header is not {RECORD_HEADER}"]
    for row in rows[2:]:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        if len(cells) != 7 or not all(cells):
            problems.append(f"not 7 filled cells: {row}")
        elif not (cells[0].startswith("not recorded") or (cells[0][:4].isdigit() and cells[0][4] == "-")):
            problems.append(f"no date: {row}")
    return problems


def test_every_guide_keeps_a_dated_measurement_record():
    """Every workload's guide holds its record of hardware measurements as one dated table (host,
    load, build, command), before the generated table of its committed baseline."""
    for workload in json.loads((REPO / "analysis/patternbench_analysis/workloads.json").read_text(encoding="utf-8")):
        guide = (REPO / workload["documentation"]).read_text(encoding="utf-8")
        assert measurement_record_problems(guide) == [], workload["documentation"]
        record, baseline = guide.index("\n## Measurement record\n"), guide.index("\n## The committed baseline\n")
        assert record < baseline, workload["documentation"]
        assert f"generated by scripts/generate-docs: baseline workload={workload['name']} " in guide[baseline:]


def test_an_undated_measurement_is_found():
    """The control: a row without a date, one without a build, and a guide without the section."""
    good = f"# x\n\n## Measurement record\n\n{RECORD_HEADER}\n|---|---|---|---|---|---|---|\n"
    row = "| 2026-11-25 | AMD EPYC | 0.6 | release | `bench-x` | 1 s | [x](#x) |"
    assert measurement_record_problems(good + row + "\n\n## Next\n") == []
    assert measurement_record_problems(good + row.replace("2026-11-25", "last week") + "\n") != []
    assert measurement_record_problems(good + row.replace(" release ", "  ") + "\n") != []
    assert measurement_record_problems("# x\n\n## Findings\n") == ["no '## Measurement record' section"]


def test_a_run_block_reads_its_file_and_refuses_a_missing_one(tmp_path: Path):
    """The `run` kind writes the baseline kind's table from the committed run it names (the control:
    the same block over the baseline's file prints the baseline's figures), and a file that is not
    there is one line and exit 65."""
    root = copy_of_the_tree(tmp_path)
    guide = root / "docs/bench-throttle.md"
    block = "workload=throttle metric=latency_p99_ms scenario=storm-slow"
    text = guide.read_text(encoding="utf-8")
    assert f"baseline {block} -->" in text
    extra = f"<!-- generated by scripts/generate-docs: run file=results/baseline/throttle.json {block} -->\n<!-- end generated -->\n"
    guide.write_text(text + "\n" + extra, encoding="utf-8")
    assert generate(root).returncode == 0
    written = guide.read_text(encoding="utf-8")
    baseline_table = written.split(f"baseline {block} -->\n", 1)[1].split("<!-- end generated -->", 1)[0]
    run_table = written.split(f"throttle.json {block} -->\n", 1)[1].split("<!-- end generated -->", 1)[0]
    assert run_table == baseline_table.replace("From the committed baseline", "From the committed run")
    guide.write_text(written.replace("file=results/baseline/throttle.json", "file=results/measurements/nothing.json"))
    result = generate(root, "--check")
    assert result.returncode == 65
    assert (
        result.stderr.strip()
        == "generate-docs: error: docs/bench-throttle.md: run: results/measurements/nothing.json does not exist"
    )
