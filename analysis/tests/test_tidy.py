"""Tidy means tidy: every CSV loads with pandas, polars and DuckDB defaults, with the same dtypes in
every run of a workload, numeric factor columns, and run parameters one documented join away."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest
from conftest import FIXTURES, run_cli

from patternbench_analysis.results import InputError, is_events_csv, load_folder
from patternbench_analysis.workloads import registry

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "results" / "baseline"


def old_units(path: Path) -> bool:
    """Written before cs_work/gap_work became cs_work_ns/gap_work_ns (the reader converts them)."""
    return ",cs_work," in path.read_text(encoding="utf-8").split("\n", 1)[0] + ","


def current_csvs() -> dict[str, list[Path]]:
    """Every results CSV in the fixtures (at any depth) and the committed baseline, by kind (workload
    or `events`). A results CSV has its `<workload>.json` beside it, as a results folder requires;
    other CSVs (input traces such as bench-cache's `reads.csv`) are no results and are left out here."""
    kinds: dict[str, list[Path]] = {}
    for path in all_csvs():
        if old_units(path) or not (is_results_csv(path) or is_events_csv(path)):
            continue
        kinds.setdefault("events" if is_events_csv(path) else path.stem, []).append(path)
    return kinds


def all_csvs() -> list[Path]:
    return sorted(FIXTURES.rglob("*.csv")) + sorted(BASELINE.glob("*.csv"))


def is_results_csv(path: Path) -> bool:
    return path.with_suffix(".json").exists() and not is_events_csv(path)


# The factor columns of each workload and their types, from the registry (workloads.json): numeric
# ones must read as numbers with every library's defaults, text ones are labels.
NUMERIC_FACTORS = {w.name: list(w.numeric_factors) for w in registry().values()}
TEXT_FACTORS = {w.name: list(w.text_factors) for w in registry().values()}
EVENTS_NUMERIC = ["seed", "time_ms", "rows", "reset", "cost_ms", "frame_lateness_ms"]
# CSVs among the fixtures that are inputs to a benchmark, not results it wrote.
INPUT_TRACES = {Path("cache") / "reads.csv"}


def dtypes(path: Path) -> dict[str, dict[str, str]]:
    relation = duckdb.read_csv(str(path))
    return {
        "pandas": {c: str(t) for c, t in pd.read_csv(path).dtypes.items()},
        "polars": {c: str(t) for c, t in pl.read_csv(path).schema.items()},
        "duckdb": dict(zip(relation.columns, map(str, relation.types), strict=True)),
    }


def without_origin(types: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    return {library: {c: t for c, t in columns.items() if c != "origin"} for library, columns in types.items()}


NUMERIC = {"pandas": ("int64", "float64"), "polars": ("Int64", "Float64"), "duckdb": ("BIGINT", "DOUBLE")}


def second_run(kind: str, quick_runs) -> Path:
    """A workload with one committed run (a new one has only its baseline: scripts/new-workload
    commits no analysis fixture) gets its second from its binary, a fresh `--quick` run (conftest's
    shared runs): dtype stability is then checked between the committed baseline and what the tool
    writes today."""
    return quick_runs.folder(kind) / f"{kind}.csv"


@pytest.mark.parametrize("kind", sorted(current_csvs()))
def test_every_csv_loads_with_defaults_and_stable_dtypes(kind, quick_runs):
    paths = current_csvs()[kind]
    assert kind == "events" or kind in NUMERIC_FACTORS, (
        f"unknown workload {kind}: register it in Sources/Measurement/Workload/WorkloadRegistry.swift"
    )
    if kind != "events" and len(paths) < 2:
        paths = [*paths, second_run(kind, quick_runs)]
    assert len(paths) >= (1 if kind == "events" else 2), paths  # stability needs at least two runs
    if kind != "events":
        for path in paths:
            factors = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))["factor_names"]
            assert sorted(factors) == sorted(NUMERIC_FACTORS[kind] + TEXT_FACTORS.get(kind, [])), (path, factors)
    # Schema 2 adds an `origin` column (schema 1 files, still read, have none): it must read as text
    # wherever it is, and every other column must keep its dtype across files of either version.
    for path in paths:
        for library, types in dtypes(path).items():
            if "origin" in types:
                assert types["origin"] not in NUMERIC[library], (path, library, types["origin"])
    first = without_origin(dtypes(paths[0]))
    for path in paths[1:]:
        assert without_origin(dtypes(path)) == first, path
    for library, types in first.items():
        numeric = EVENTS_NUMERIC if kind == "events" else ["seed", "repetition", "value"] + NUMERIC_FACTORS[kind]
        for column in numeric:
            assert types[column] in NUMERIC[library], (library, column, types[column])
        for column in TEXT_FACTORS.get(kind, []):
            assert types[column] not in NUMERIC[library], (library, column, types[column])


def test_input_traces_are_not_taken_for_results():
    """The only CSVs without a results document beside them are the known benchmark inputs, and a
    results folder holding one is refused with its name, not read as a workload."""
    others = {
        path.relative_to(FIXTURES)
        for path in all_csvs()
        if path.is_relative_to(FIXTURES) and not is_results_csv(path) and not is_events_csv(path)
    }
    assert others == INPUT_TRACES
    assert "reads" not in current_csvs()
    with pytest.raises(InputError, match=r"reads\.csv"):
        load_folder(FIXTURES / "cache")


def test_old_duration_factors_are_what_broke_the_defaults():
    """The control: the old `cs_work` = `50ns` column reads as text by default, `0`-only files as int."""
    old = dtypes(FIXTURES / "atomics-old-units" / "atomics.csv")
    assert old["pandas"]["cs_work"] == "str" and old["polars"]["cs_work"] == "String"
    # A 0-only file of the old units (the frozen history source): another dtype for the same column.
    assert dtypes(FIXTURES / "history-source" / "atomics.csv")["pandas"]["cs_work"] == "int64"


def test_the_reader_gives_old_and_new_files_the_same_numeric_columns():
    old = load_folder(FIXTURES / "atomics-old-units").runs["atomics"]
    new = load_folder(FIXTURES / "atomics-ns").runs["atomics"]
    assert old.factor_names == new.factor_names == ["threads", "cs_work_ns", "gap_work_ns"]
    assert dict(old.table.dtypes.astype(str)) == dict(new.table.dtypes.astype(str))
    assert old.table["cs_work_ns"].dtype == "float64"
    assert sorted(old.table["cs_work_ns"].unique()) == [0, 50] and sorted(old.table["gap_work_ns"].unique()) == [
        0,
        1000,
    ]
    pd.testing.assert_frame_equal(old.table.drop(columns=["value"]), new.table.drop(columns=["value"]))


def test_a_bad_old_duration_is_refused_with_its_line(tmp_path):
    import shutil

    folder = tmp_path / "bad"
    shutil.copytree(FIXTURES / "atomics-old-units", folder)
    csv_path = folder / "atomics.csv"
    lines = csv_path.read_text().splitlines(keepends=True)
    header = lines[0].rstrip("\n").split(",")
    fields = lines[3].rstrip("\n").split(",")
    fields[header.index("cs_work")] = "fifty"
    lines[3] = ",".join(fields) + "\n"
    csv_path.write_text("".join(lines))
    result = run_cli("report", folder, "-o", tmp_path / "out")
    assert result.returncode == 1 and "line 4" in result.stderr and "cs_work" in result.stderr, result.stderr


def test_run_parameters_are_one_join_away(tmp_path):
    out = tmp_path / "runs.csv"
    result = run_cli("runs", FIXTURES / "sweep-max-age-60", FIXTURES / "sweep-max-age-100", "-o", out)
    assert result.returncode == 0, result.stderr
    csvs = [FIXTURES / f / "throttle.csv" for f in ("sweep-max-age-60", "sweep-max-age-100")]
    runs = pd.read_csv(out)
    assert runs["param_max_age_ms"].dtype.kind == "i"
    rows = pd.concat([pd.read_csv(p) for p in csvs])
    joined = rows.merge(runs, on="run_id", how="left", validate="many_to_one")
    assert len(joined) == len(rows) and set(joined["param_max_age_ms"]) == {60, 100}
    polars_joined = pl.concat([pl.read_csv(p) for p in csvs]).join(pl.read_csv(out), on="run_id", how="left")
    assert polars_joined.height == len(rows) and set(polars_joined["param_max_age_ms"].to_list()) == {60, 100}
    files = ", ".join(f"'{p}'" for p in csvs)
    counts = duckdb.sql(
        f"SELECT r.param_max_age_ms, count(*) FROM read_csv([{files}]) t JOIN read_csv('{out}') r "
        f"USING (run_id) GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert [c[0] for c in counts] == [60, 100] and sum(c[1] for c in counts) == len(rows)
    # The suite's own runs name no user package; the columns are there, empty.
    assert runs["user_package_name"].isna().all()
    # These fixtures predate the key: their values come from random stream version 1.
    assert runs["random_stream_version"].tolist() == [1] * len(runs)


def test_runs_name_the_users_package(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    for name in ("throttle.csv", "throttle.json"):
        (folder / name).write_bytes((FIXTURES / "sweep-max-age-60" / name).read_bytes())
    document = json.loads((folder / "throttle.json").read_text())
    document["metadata"]["user_package"] = {
        "name": "MyBench",
        "path": "/src/MyBench",
        "git_commit": "abc123",
        "git_dirty": False,
    }
    (folder / "throttle.json").write_text(json.dumps(document))
    out = tmp_path / "runs.csv"
    result = run_cli("runs", folder, "-o", out)
    assert result.returncode == 0, result.stderr
    runs = pd.read_csv(out)
    assert runs["user_package_name"].tolist() == ["MyBench"] and runs["user_package_git_commit"].tolist() == ["abc123"]


def test_a_workload_with_one_committed_run_is_compared_with_a_fresh_one(quick_runs):
    """What a new workload gets (its baseline and nothing else committed): a fresh run of its
    binary, which must read with the baseline's dtypes; the control is the old-units pair below,
    whose dtypes differ and would fail the comparison."""
    fresh = second_run("group", quick_runs)
    assert without_origin(dtypes(fresh)) == without_origin(dtypes(BASELINE / "group.csv"))
    assert without_origin(dtypes(FIXTURES / "atomics-old-units" / "atomics.csv")) != without_origin(
        dtypes(BASELINE / "atomics.csv")
    )
