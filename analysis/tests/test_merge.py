"""Merging results folders from several machines: round trip, hosts kept, bad input refused."""

import json

import pandas as pd
import pytest
from conftest import assert_one_line_error, copy_folder, run_cli

from patternbench_analysis.merge import summarize
from patternbench_analysis.results import load_folder

KEY = ["scenario", "variant", "mode", "seed", "repetition", "metric"]


@pytest.fixture
def merged(tmp_path, fixtures):
    out = tmp_path / "merged"
    result = run_cli("merge", fixtures / "shard-1", fixtures / "shard-2", "--output", out)
    assert result.returncode == 0, result.stderr
    return out


def test_shards_are_disjoint_and_cover_the_unsharded_matrix(fixtures):
    whole = load_folder(fixtures / "whole").runs["throttle"].table

    def cells(t):
        return set(zip(t["scenario"], t["variant"], t["seed"], strict=True))

    parts = [cells(load_folder(fixtures / f"shard-{i}").runs["throttle"].table) for i in (1, 2)]
    assert parts[0] and parts[1] and not parts[0] & parts[1]
    assert parts[0] | parts[1] == cells(whole)


def test_merge_round_trips_to_the_unsharded_run(merged, fixtures):
    """Virtual time is deterministic: the merged shards hold exactly the values of one unsharded run."""
    whole = load_folder(fixtures / "whole").runs["throttle"]
    got = load_folder(merged).runs["throttle"]
    a = got.table.set_index(KEY)["value"].sort_index()
    b = whole.table.set_index(KEY)["value"].sort_index()
    pd.testing.assert_series_equal(a, b)

    # Summaries are recomputed over the union by the same rule as Statistics.summarize.
    def summaries(doc):
        return {
            (s["scenario"], s["variant"], s["metric"]): (
                s["count"],
                s["median"],
                s["min"],
                s["max"],
                round(s["mean"], 9),
            )
            for s in doc["summaries"]
        }

    assert summaries(got.document) == summaries(whole.document)


def test_each_row_keeps_its_host_and_run_id(merged, fixtures):
    table = load_folder(merged).runs["throttle"].table
    for i, host in ((1, "vm"), (2, "ci-runner-2")):
        source = load_folder(fixtures / f"shard-{i}").runs["throttle"]
        rows = table[table["run_id"] == source.run_ids[0]]
        assert len(rows) == len(source.table) and set(rows["host"]) == {host}
    doc = json.loads((merged / "throttle.json").read_text())
    assert {r["host"] for r in doc["records"]} == {"vm", "ci-runner-2"}
    assert [s["host"] for s in doc["metadata"]["parameters"]["merged_from"]] == ["vm", "ci-runner-2"]
    assert doc["metadata"]["parameters"]["shards"] == ["1/2", "2/2"]
    assert doc["schema_version"] == 1 and doc["run_id"].startswith("throttle-20")
    assert any("merged from 2 runs on 2 host(s)" in n for n in doc["notes"])
    assert not any("missing" in n for n in doc["notes"])


def test_merged_csv_is_the_inputs_byte_for_byte(merged, fixtures):
    lines = (merged / "throttle.csv").read_text().splitlines()
    one = (fixtures / "shard-1/throttle.csv").read_text().splitlines()
    two = (fixtures / "shard-2/throttle.csv").read_text().splitlines()
    assert lines == one + two[1:]


def test_merge_is_deterministic_and_merges_of_merges_flatten(tmp_path, fixtures):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert run_cli("merge", fixtures / "shard-1", fixtures / "shard-2", "-o", out).returncode == 0
    docs = [json.loads((d / "throttle.json").read_text()) for d in (a, b)]
    assert docs[0]["metadata"].pop("command_line")[-1] == str(a)  # the only difference: where it was written
    assert docs[1]["metadata"].pop("command_line")[-1] == str(b)
    assert docs[0] == docs[1]
    assert (a / "throttle.csv").read_bytes() == (b / "throttle.csv").read_bytes()
    again = tmp_path / "again"
    result = run_cli("merge", a, fixtures / "run", "-o", again)
    assert result.returncode == 0, result.stderr
    doc = json.loads((again / "throttle.json").read_text())
    assert len(doc["metadata"]["parameters"]["merged_from"]) == 3
    folder = load_folder(again)
    assert set(folder.runs) == {"throttle", "atomics", "clock"}  # workloads only one input had are kept
    assert folder.events is not None and len(folder.events) == len(load_folder(fixtures / "run").events)
    # A merged folder feeds every other command.
    assert run_cli("export", "-f", "openmetrics", again).returncode == 0


def test_missing_shard_and_mixed_sharding_are_noted(tmp_path, fixtures):
    out = tmp_path / "m"
    refused = run_cli("merge", fixtures / "shard-2", "-o", out)
    assert_one_line_error(refused, "shards 1/2 missing", "--allow-missing-shards")
    assert not out.exists() or not any(out.iterdir())  # nothing half-written
    assert run_cli("merge", fixtures / "shard-2", "-o", out, "--allow-missing-shards").returncode == 0
    notes = json.loads((out / "throttle.json").read_text())["notes"]
    assert any("shards 1/2 missing: the merged matrix is incomplete" in n for n in notes)
    assert run_cli("merge", fixtures / "shard-2", fixtures / "run", "-o", tmp_path / "n").returncode == 0
    notes = json.loads((tmp_path / "n/throttle.json").read_text())["notes"]
    assert any("mix sharded and unsharded" in n for n in notes)


def test_summarize_matches_swift_rule():
    recs = [
        {"scenario": "s", "variant": "v", "mode": "sim", "factors": {}, "metric": "m", "unit": "ms", "value": v}
        for v in (4, 1, 3, 2)
    ]
    (row,) = summarize(recs)
    assert (row["count"], row["median"], row["min"], row["max"], row["mean"]) == (4, 2.5, 1, 4, 2.5)


# ---------------------------------------------------------------- bad input


def test_overlapping_run_ids_are_refused(tmp_path, fixtures):
    copy = copy_folder("shard-1", tmp_path)  # the same run copied from another machine's artifacts
    result = run_cli("merge", fixtures / "shard-1", copy, fixtures / "shard-2", "-o", tmp_path / "out")
    assert_one_line_error(result, "overlapping run ids", "throttle-")
    assert not (tmp_path / "out").exists()


def test_mixed_schema_versions_are_refused(tmp_path, fixtures):
    newer = copy_folder("shard-2", tmp_path)
    doc = json.loads((newer / "throttle.json").read_text())
    doc["schema_version"] = 2
    (newer / "throttle.json").write_text(json.dumps(doc))
    result = run_cli("merge", fixtures / "shard-1", newer, "-o", tmp_path / "out")
    assert_one_line_error(result, "mixed schema versions", "throttle.json is 2")


def test_mixed_random_stream_versions_are_refused(tmp_path, fixtures, merged):
    """Runs of two random stream versions give other values for the same seed: not one matrix.
    A document without the key is version 1, so the fixtures (older) merge, and the merge says so."""
    assert json.loads((merged / "throttle.json").read_text())["metadata"]["random_stream_version"] == 1
    newer = copy_folder("shard-2", tmp_path)
    doc = json.loads((newer / "throttle.json").read_text())
    doc["metadata"]["random_stream_version"] = 2
    (newer / "throttle.json").write_text(json.dumps(doc))
    result = run_cli("merge", fixtures / "shard-1", newer, "-o", tmp_path / "out")
    assert_one_line_error(result, "cannot merge throttle runs of random stream versions 1, 2")
    assert not (tmp_path / "out").exists()


def test_csv_from_another_schema_version_is_refused(tmp_path, fixtures):
    other = copy_folder("shard-2", tmp_path)
    csv_path = other / "throttle.csv"
    text = csv_path.read_text()
    csv_path.write_text(text.replace("run_id,workload,", "schema_version,run_id,workload,", 1))
    result = run_cli("merge", fixtures / "shard-1", other, "-o", tmp_path / "out")
    assert_one_line_error(result, "throttle.csv", "not results schema version 1")


@pytest.mark.parametrize("case", ["missing", "empty"])
def test_missing_or_empty_folder_is_refused(tmp_path, fixtures, case):
    bad = tmp_path / "shard-3"
    if case == "empty":
        bad.mkdir()
    result = run_cli("merge", fixtures / "shard-1", bad, "-o", tmp_path / "out")
    assert_one_line_error(
        result,
        str(bad),
        "does not exist" if case == "missing" else "holds no results",
        status=2 if case == "missing" else 1,
    )


def test_different_factor_columns_are_refused(tmp_path, fixtures):
    other = copy_folder("shard-2", tmp_path)
    doc = json.loads((other / "throttle.json").read_text())
    doc["factor_names"] = ["device"]
    for r in doc["records"]:
        r["factors"] = {"device": "fast"}
    (other / "throttle.json").write_text(json.dumps(doc))
    lines = (other / "throttle.csv").read_text().splitlines()
    out = [lines[0].replace("repetition,", "repetition,device,")]
    for line in lines[1:]:
        f = line.split(",")
        out.append(",".join([*f[:7], "fast", *f[7:]]))
    (other / "throttle.csv").write_text("\n".join(out) + "\n")
    assert load_folder(other)  # valid on its own
    assert_one_line_error(run_cli("merge", fixtures / "shard-1", other, "-o", tmp_path / "out"), "factor columns")


def test_output_is_protected(tmp_path, fixtures):
    out = tmp_path / "out"
    assert run_cli("merge", fixtures / "shard-1", fixtures / "shard-2", "-o", out).returncode == 0
    assert_one_line_error(run_cli("merge", fixtures / "shard-1", fixtures / "shard-2", "-o", out), "--force")
    assert run_cli("merge", fixtures / "shard-1", fixtures / "shard-2", "-o", out, "--force").returncode == 0
    shard = copy_folder("shard-1", tmp_path / "x")
    assert_one_line_error(run_cli("merge", shard, fixtures / "shard-2", "-o", shard), "is one of the inputs")


def test_usage_errors_exit_2(fixtures):
    result = run_cli("merge", fixtures / "shard-1")
    assert result.returncode == 2 and "--output" in result.stderr


def test_report_of_a_merged_folder_lists_every_host_and_shard(merged, tmp_path):
    assert run_cli("report", merged, "-o", tmp_path / "r").returncode == 0
    md = (tmp_path / "r/summary.md").read_text()
    assert "| vm | AMD EPYC |" in md and "| ci-runner-2 | AMD EPYC |" in md
    assert "| 1/2 |" in md and "| 2/2 |" in md
