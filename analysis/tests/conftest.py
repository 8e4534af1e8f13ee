"""Shared fixtures: the committed results folders (from real --quick runs) and a CLI runner."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
ANALYSIS = Path(__file__).parent.parent


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The real command line, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "patternbench_analysis", *map(str, args)],
        cwd=cwd or ANALYSIS,
        capture_output=True,
        text=True,
        timeout=300,
    )


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str, status: int = 1) -> None:
    """Exit `status` (1: bad input; 2: a path missing, in the way or not writable) with one line on stderr."""
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pb-analysis "), lines[0]
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def copy_folder(name: str, dest: Path) -> Path:
    target = dest / name
    shutil.copytree(FIXTURES / name, target)
    return target


def small_run_set(folder: Path) -> Path:
    """Three workloads and a timeline, small enough to draw in seconds: fixtures/run's atomics and
    clock, fixtures/whole's throttle, and the first rows of fixtures/run's events."""
    folder.mkdir()
    for source in ("run/atomics.json", "run/atomics.csv", "run/clock.json", "run/clock.csv"):
        shutil.copy(FIXTURES / source, folder)
    for source in ("whole/throttle.json", "whole/throttle.csv"):
        shutil.copy(FIXTURES / source, folder)
    lines = (FIXTURES / "run/events.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "events.csv").write_text("".join(lines[:200]), encoding="utf-8")
    return folder


def rewrite_results(folder: Path, workload: str, change) -> None:
    """Applies `change(record_dict)` to every record of the CSV and JSON, keeping both valid."""
    doc = json.loads((folder / f"{workload}.json").read_text())
    for record in doc["records"]:
        change(record)
    (folder / f"{workload}.json").write_text(json.dumps(doc, indent=2))
    rows = list(csv.reader(io.StringIO((folder / f"{workload}.csv").read_text(), newline="")))
    header, out = rows[0], io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows[1:]:
        record = dict(zip(header, row, strict=False))
        factors = {k: record[k] for k in doc["factor_names"]}
        as_record = {k: v for k, v in record.items() if k not in factors} | {"factors": factors}
        change(as_record)
        flat = {**as_record, **as_record["factors"]}
        writer.writerow([flat[c] for c in header])
    (folder / f"{workload}.csv").write_text(out.getvalue())


def each_row(folders):
    """Every row of every table in `folders`, as (workload, run, row, tags, factors).

    `tags` are the row's identifying columns as the exporters write them (run_id, scenario,
    variant, mode, seed, repetition, host); `factors` its non-empty factors as (name, text) pairs
    in the table's order. The exporters' tests rebuild what they expect from these."""
    from patternbench_analysis.results import factor_text

    for folder in folders:
        for workload, run in folder.runs.items():
            for r in run.table.to_dict("records"):
                tags = (
                    r["run_id"],
                    r["scenario"],
                    r["variant"],
                    r["mode"],
                    str(r["seed"]),
                    str(r["repetition"]),
                    r["host"],
                )
                factors = tuple((f, factor_text(r[f])) for f in run.factor_names if factor_text(r[f]) != "")
                yield workload, run, r, tags, factors


# ---------------------------------------------------------------- fresh runs of the tools

BIN_DIR = Path(os.environ.get("PB_BIN_DIR", ANALYSIS.parent / ".build" / "debug"))
if not BIN_DIR.is_absolute():
    BIN_DIR = ANALYSIS.parent / BIN_DIR
# Workloads whose quick run needs a flag to stay short (live measurement left out where it can be).
QUICK_EXTRA = {"clock": ["--no-read-cost"]}


class QuickRuns:
    """Fresh `--quick` runs of the bench-* tools, each made at most once per test session.

    Each tool's run is a folder holding `<workload>.csv` and `.json`, and `events.csv` where the
    workload has a timeline. Several test files read what the tools write today (dtypes, float
    spellings, a second run beside a committed one); before, each made its own runs of the debug
    binaries, which was most of the suite's time. A run is made when first asked for, so a test file
    run alone (the scaffold's check runs test_tidy.py) makes only the runs it reads."""

    def __init__(self, root: Path):
        self.root = root
        self.folders: dict[str, Path] = {}

    def folder(self, workload: str) -> Path:
        if workload not in self.folders:
            self.folders[workload] = self._run(workload)
        return self.folders[workload]

    def all(self, workloads: list[str]) -> dict[str, Path]:
        """Every named workload's run; the missing ones made two at a time (a core each: they are
        single-threaded virtual-time runs, except atomics' short live matrix, which the tests read
        for its spelling and types, not its timings)."""
        from concurrent.futures import ThreadPoolExecutor

        missing = [w for w in workloads if w not in self.folders]
        for workload in missing:
            self._tool(workload)  # a missing binary skips before anything runs
        with ThreadPoolExecutor(max_workers=2) as pool:
            for workload, folder in zip(missing, pool.map(self._run, missing), strict=True):
                self.folders[workload] = folder
        return {w: self.folders[w] for w in workloads}

    def _tool(self, workload: str) -> Path:
        from patternbench_analysis.workloads import registry

        tool = BIN_DIR / registry()[workload].executable
        if not tool.exists():
            pytest.skip(f"{tool.name} is not built (swift build; PB_BIN_DIR names the folder)")
        return tool

    def _run(self, workload: str) -> Path:
        folder = self.root / workload
        args = [str(self._tool(workload)), "--quick", "--quiet", "--output", str(folder)]
        args += QUICK_EXTRA.get(workload, [])
        events = folder / "events.csv"
        done = subprocess.run([*args, "--events", str(events)], capture_output=True, text=True, timeout=600)
        if done.returncode == 64 and "--events" in done.stderr:  # a workload without a timeline
            done = subprocess.run(args, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (workload, done.stderr)
        return folder


@pytest.fixture(scope="session")
def quick_runs(tmp_path_factory) -> QuickRuns:
    return QuickRuns(tmp_path_factory.mktemp("quick-runs"))
