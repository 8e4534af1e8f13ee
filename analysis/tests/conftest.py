"""Shared fixtures: the committed results folders (from real --quick runs) and a CLI runner."""

from __future__ import annotations

import csv
import io
import json
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
