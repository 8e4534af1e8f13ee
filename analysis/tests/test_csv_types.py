"""The `value` column reads as a float in pandas, polars and DuckDB with their defaults, for every
workload and every scenario selection, and so do the `--events` number columns.

Readers guess a column's type from its first rows (polars from the first 100): a selection whose
first values were whole numbers written as `3` read as integers, and polars then failed on the
first fraction. The writer now spells every value as a float (`CSVWriter.float`). Each workload's
binary writes a fresh `--quick` run (with `--events` where it has a timeline); every scenario's rows
alone stand for what `--scenario` selects, since a run writes its rows scenario by scenario, and the
rows reordered whole numbers first stand for any selection whose first rows happen to be whole. The
control re-spells the same rows the old way and shows that order then fails in polars.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest

from patternbench_analysis.workloads import registry

# The writer's float spellings: a point or an exponent, NaN, and 1e999 for an infinity.
FLOAT_SPELLING = re.compile(r"^-?(\d+\.\d+(e[-+]\d+)?|\d+e[-+]\d+|1e999)$|^NaN$")
EVENTS_NUMBERS = ["time_ms", "cost_ms", "frame_lateness_ms", "value"]
FLOATS = {"pandas": "float64", "polars": "Float64", "duckdb": "DOUBLE"}


def column_types(path: Path, columns: list[str]) -> dict[str, dict[str, str]]:
    relation = duckdb.read_csv(str(path))
    duck = dict(zip(relation.columns, map(str, relation.types), strict=True))
    # Each library guesses a column's type from that column alone: reading only the checked columns
    # gives them the types a whole read gives (and polars still parses every row of them).
    pandas = {c: str(t) for c, t in pd.read_csv(path, usecols=columns).dtypes.items()}
    polars = {c: str(t) for c, t in pl.read_csv(path, columns=columns).schema.items()}
    return {
        "pandas": {c: pandas[c] for c in columns},
        "polars": {c: polars[c] for c in columns},
        "duckdb": {c: duck[c] for c in columns},
    }


def whole(text: str) -> bool:
    try:
        return float(text).is_integer()
    except ValueError:
        return False


def selections(path: Path, folder: Path, column: str = "value") -> list[Path]:
    """The whole file, one file per scenario holding only its rows (what `--scenario` writes), and
    the rows whose `column` is a whole number first (a selection whose first rows happen to be).

    The rows are copied as the file spells them: a file without quotes is split into lines (the
    events files run to 150 MB, where the csv module's parse and re-write was most of this test's
    time); one with quotes goes through the csv module."""
    text = path.read_text(encoding="utf-8")
    if '"' in text or "\r" in text:
        return _selections_by_csv(list(csv.reader(io.StringIO(text, newline=""))), path, folder, column)
    lines = [f"{line}\n" for line in text.removesuffix("\n").split("\n")]
    header, body = lines[0].rstrip("\n").split(","), lines[1:]
    scenario, value = header.index("scenario"), header.index(column)
    cells = [line.rstrip("\n").split(",", max(scenario, value) + 1) for line in body]
    by_scenario: dict[str, list[str]] = {}
    for line, row in zip(body, cells, strict=True):
        by_scenario.setdefault(row[scenario], []).append(line)
    bodies = [by_scenario[name] for name in sorted(by_scenario)]
    order = sorted(range(len(body)), key=lambda i: not whole(cells[i][value]))
    bodies.append([body[i] for i in order])
    files = [path]
    for rows_selected in bodies:
        selected = folder / f"{path.stem}-{len(files)}.csv"
        selected.write_text(lines[0] + "".join(rows_selected), encoding="utf-8")
        files.append(selected)
    return files


def _selections_by_csv(rows: list[list[str]], path: Path, folder: Path, column: str) -> list[Path]:
    """`selections` through the csv module, for a file whose fields are quoted."""
    header, body = rows[0], rows[1:]
    scenario, value = header.index("scenario"), header.index(column)
    bodies = [[r for r in body if r[scenario] == name] for name in sorted({r[scenario] for r in body})]
    bodies.append(sorted(body, key=lambda r: not whole(r[value])))
    files = [path]
    for rows_selected in bodies:
        selected = folder / f"{path.stem}-{len(files)}.csv"
        with selected.open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle, lineterminator="\n").writerows([header, *rows_selected])
        files.append(selected)
    return files


@pytest.fixture(scope="module")
def runs(quick_runs) -> dict[str, Path]:
    """One fresh `--quick` run of every registered workload (conftest's shared runs, with
    `--events` where the workload has a timeline): its results CSV (and events CSV)."""
    made: dict[str, Path] = {}
    for workload, folder in quick_runs.all(list(registry())).items():
        made[workload] = folder / f"{workload}.csv"
        if (folder / "events.csv").exists():
            made[f"{workload} events"] = folder / "events.csv"
    return made


def test_every_value_is_spelled_as_a_float(runs):
    """The property that makes any selection read as a float: no value is spelled as an integer."""
    for name, path in runs.items():
        columns = EVENTS_NUMBERS if name.endswith(" events") else ["value"]
        with path.open(encoding="utf-8", newline="") as handle:
            for line, row in enumerate(csv.DictReader(handle), start=2):
                for column in columns:
                    assert FLOAT_SPELLING.match(row[column]), f"{path}:{line}: {column} is '{row[column]}'"


def test_value_reads_as_a_float_for_every_workload_and_scenario(runs, tmp_path):
    for name, path in runs.items():
        columns = EVENTS_NUMBERS if name.endswith(" events") else ["value"]
        for selected in selections(path, tmp_path):
            for library, types in column_types(selected, columns).items():
                for column, found in types.items():
                    assert found == FLOATS[library], f"{name}, {selected.name}: {library} reads {column} as {found}"


def old_spelling(text: str) -> str:
    """What the writer wrote before: whole numbers without `.0`, an absent number as empty."""
    if text == "NaN":
        return ""
    return str(int(float(text))) if re.fullmatch(r"-?\d+\.0", text) else text


def test_control_the_old_spelling_fails_some_selection(runs, tmp_path):
    """Without the float spelling a selection whose first 100 values are whole reads `value` as an
    integer in polars and fails on the first fraction: every workload that has 100 whole values
    and a fraction shows it."""
    failures = []
    for name, path in runs.items():
        if name.endswith(" events"):
            continue
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        value = rows[0].index("value")
        old = tmp_path / f"{name}-old.csv"
        with old.open("w", encoding="utf-8", newline="") as handle:
            csv.writer(handle, lineterminator="\n").writerows(
                [rows[0], *([*r[:value], old_spelling(r[value]), *r[value + 1 :]] for r in rows[1:])]
            )
        for selected in selections(old, tmp_path):
            try:
                found = pl.read_csv(selected, columns=["value"]).schema["value"]  # as column_types reads it
            except pl.exceptions.ComputeError:
                failures.append(f"{name} {selected.name}: polars fails")
                continue
            if str(found) != "Float64":
                failures.append(f"{name} {selected.name}: polars reads {found}")
    assert failures, "the old spelling read as floats everywhere: this test would not catch its return"
