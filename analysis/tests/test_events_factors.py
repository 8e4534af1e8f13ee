"""Schema 3: factor values typed in the JSON, and `--events` rows that carry their item's factor
columns, so an events row joins to its results rows."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from conftest import copy_folder

from patternbench_analysis.results import load_folder, read_document

REPO = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("PB_BIN_DIR", ".build/debug"))
if not BIN_DIR.is_absolute():
    BIN_DIR = REPO / BIN_DIR
KEYS = ["run_id", "scenario", "variant", "mode", "seed", "repetition"]


def schema_3(folder: Path) -> None:
    """The fixture's atomics run as bench-* write it since schema 3: numeric factors as numbers."""
    path = folder / "atomics.json"
    doc = json.loads(path.read_text())
    doc["schema_version"] = 3
    for row in doc["records"] + doc["summaries"]:
        row["factors"] = {k: (None if v == "" else int(v)) for k, v in row["factors"].items()}
    path.write_text(json.dumps(doc))
    lines = (folder / "atomics.csv").read_text().splitlines()  # schema 2 added `origin` after `variant`
    out = [lines[0].replace(",variant,", ",variant,origin,", 1)]
    out += [",".join([*cells[:4], "platform", *cells[4:]]) for cells in (line.split(",") for line in lines[1:])]
    (folder / "atomics.csv").write_text("\n".join(out) + "\n")


def test_schema_3_typed_factors_read_like_schema_2(tmp_path, fixtures):
    folder = copy_folder("atomics-ns", tmp_path)
    schema_3(folder)
    assert '"threads": 1' in (folder / "atomics.json").read_text()
    new, old = load_folder(folder).runs["atomics"], load_folder(fixtures / "atomics-ns").runs["atomics"]
    assert new.table.equals(old.table)
    # The records' factors read back as the CSV's text, whichever version wrote them.
    assert (
        read_document(folder / "atomics.json")["records"]
        == read_document(fixtures / "atomics-ns" / "atomics.json")["records"]
    )


def test_schema_3_events_carry_factor_columns_typed_like_the_results(tmp_path, fixtures):
    folder = copy_folder("atomics-ns", tmp_path)
    results = load_folder(folder).runs["atomics"].table
    first = results.iloc[0]
    rows = "\n".join(
        f"{first.run_id},atomics,{first.scenario},{first.variant},{first['mode']},{first.seed},{first.repetition},"
        f"{threads},0,0,{t},hold,0,0,0.001,,thread 1,slice,"
        for t, threads in ((0.5, 1), (0.7, 2))
    )
    (folder / "events.csv").write_text(
        "run_id,workload,scenario,variant,mode,seed,repetition,threads,cs_work_ns,gap_work_ns,"
        "time_ms,event,rows,reset,cost_ms,frame_lateness_ms,track,kind,value\n" + rows + "\n"
    )
    events = load_folder(folder).events
    assert events["threads"].dtype == results["threads"].dtype == "float64"
    assert list(events["threads"]) == [1.0, 2.0]
    joined = events.merge(
        results[[*KEYS, "threads", "cs_work_ns", "gap_work_ns"]].drop_duplicates(),
        how="left",
        on=[*KEYS, "threads", "cs_work_ns", "gap_work_ns"],
        indicator=True,
    )
    assert joined["_merge"].value_counts().to_dict()["both"] >= 1


def test_a_real_runs_events_all_join_their_results_rows(tmp_path):
    """bench-atomics writes schema 3 and events with factor columns: every events row joins a
    results row in pandas; the control: without the factor columns the 8 items merge into 2."""
    tool = BIN_DIR / "bench-atomics"
    if not (tool.is_file() and os.access(tool, os.X_OK)):
        pytest.skip(f"{tool} is not built (swift build); PB_BIN_DIR names the folder")
    out = tmp_path / "run"
    subprocess.run(
        [
            tool,
            "--quick",
            "--quiet",
            "--threads",
            "1,2",
            "--scenario",
            "increment",
            "--variant",
            "pthread-mutex,atomic",
            "--cs-work",
            "0,50ns",
            "--events",
            out / "events.csv",
            "--output",
            out,
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    folder = load_folder(out)
    run = folder.runs["atomics"]
    assert run.document["schema_version"] == 3
    factors = run.factor_names
    items = folder.events[KEYS + factors].drop_duplicates()
    joined = items.merge(run.table[KEYS + factors].drop_duplicates(), how="left", indicator=True)
    assert len(items) == 8 and (joined["_merge"] == "both").all()
    assert len(folder.events[KEYS].drop_duplicates()) == 2
    # The raw JSON has the CSV's types: pandas reads the CSV's threads as integers, the JSON has 1, 2.
    raw = json.loads((out / "atomics.json").read_text())
    assert {type(r["factors"]["threads"]) for r in raw["records"]} == {int}
    assert pd.read_csv(out / "atomics.csv")["threads"].dtype.kind == "i"
