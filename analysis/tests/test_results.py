"""The reader: schema versions 1 and 2 (2 adds `origin`), one-line errors naming the file, no guessing."""

import json
import math

import pytest
from conftest import assert_one_line_error, copy_folder, run_cli

from patternbench_analysis.results import InputError, load_folder, load_folders


def test_reads_every_workload_of_the_fixture(fixtures):
    folder = load_folder(fixtures / "run")
    assert set(folder.runs) == {"throttle", "atomics", "clock"}
    assert folder.runs["atomics"].factor_names == ["threads", "cs_work_ns", "gap_work_ns"]
    assert folder.runs["clock"].factor_names == ["client"]
    assert folder.events is not None and {"time_ms", "frame_lateness_ms"} <= set(folder.events.columns)
    for run in folder.runs.values():
        assert len(run.table) == len(run.document["records"])
        assert run.table["value"].dtype.kind == "f"
        assert run.hosts == ["vm"]


def test_inf_and_nan_values_read_as_floats(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    csv_path = folder / "throttle.csv"
    lines = csv_path.read_text().splitlines()
    first, second = lines[1].split(","), lines[2].split(",")
    first[-3], second[-3] = "inf", "nan"
    csv_path.write_text("\n".join([lines[0], ",".join(first), ",".join(second), *lines[3:]]) + "\n")
    doc = json.loads((folder / "throttle.json").read_text())
    doc["records"][0]["value"], doc["records"][1]["value"] = "inf", "nan"
    (folder / "throttle.json").write_text(json.dumps(doc))
    table = load_folder(folder).runs["throttle"].table
    assert math.isinf(table["value"].iloc[0]) and math.isnan(table["value"].iloc[1])


@pytest.mark.parametrize("case", ["missing", "empty", "file"])
def test_missing_or_empty_folder_is_refused(tmp_path, case):
    path = tmp_path / "results"
    if case == "empty":
        path.mkdir()
    elif case == "file":
        path.write_text("x")
    with pytest.raises(InputError):
        load_folder(path)
    for command in (["plot", path], ["report", path], ["export", "-f", "influx", path]):
        assert_one_line_error(run_cli(*command), str(path), status=1 if case == "empty" else 2)


def test_other_schema_version_is_refused_naming_the_file(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    doc = json.loads((folder / "throttle.json").read_text())
    doc["schema_version"] = 4
    (folder / "throttle.json").write_text(json.dumps(doc))
    assert_one_line_error(run_cli("plot", folder), "throttle.json", "schema_version 4", "schema versions 1, 2, 3")


def schema_2(folder):
    """The fixture's throttle run as today's bench-* write it: schema 2, an `origin` after `variant`."""
    doc = json.loads((folder / "throttle.json").read_text())
    doc["schema_version"] = 2
    (folder / "throttle.json").write_text(json.dumps(doc))
    lines = (folder / "throttle.csv").read_text().splitlines()
    out = [lines[0].replace(",variant,", ",variant,origin,", 1)]
    for line in lines[1:]:
        cells = line.split(",")
        out.append(",".join([*cells[:4], "signal", *cells[4:]]))
    (folder / "throttle.csv").write_text("\n".join(out) + "\n")


def test_schema_2_reads_as_schema_1_without_origin(tmp_path, fixtures):
    """What bench-* write since the variant registries (schema 2) reads like the schema-1 fixture,
    so the nightly's report and history work on today's runs."""
    folder = copy_folder("shard-1", tmp_path)
    schema_2(folder)
    new, old = load_folder(folder).runs["throttle"].table, load_folder(fixtures / "shard-1").runs["throttle"].table
    assert list(new.columns) == list(old.columns) and "origin" not in new.columns
    assert new.equals(old)
    assert run_cli("plot", folder, "-o", tmp_path / "charts").returncode == 0
    # Control: a schema-2 document whose CSV lacks `origin` is refused, naming the version.
    (folder / "throttle.csv").write_text((fixtures / "shard-1" / "throttle.csv").read_text())
    assert_one_line_error(run_cli("plot", folder), "throttle.csv", "not results schema version 2")


def test_csv_from_another_schema_version_is_refused(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    csv_path = folder / "throttle.csv"
    lines = csv_path.read_text().splitlines()
    # A hypothetical version 2 that renamed `variant` to `policy` and dropped `host`.
    lines = [lines[0].replace("variant", "policy").replace(",host", "")] + [
        line.rsplit(",", 1)[0] for line in lines[1:]
    ]
    csv_path.write_text("\n".join(lines) + "\n")
    assert_one_line_error(
        run_cli("export", "-f", "openmetrics", folder), "throttle.csv", "not results schema version 1"
    )


def test_json_without_csv_and_broken_json_are_refused(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    (folder / "throttle.csv").unlink()
    assert_one_line_error(run_cli("plot", folder), "throttle.json", "no throttle.csv")
    folder = copy_folder("shard-2", tmp_path)
    (folder / "throttle.json").write_text("{not json")
    assert_one_line_error(run_cli("plot", folder), "throttle.json", "not valid JSON")


def test_non_numeric_value_is_refused_with_its_line(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    csv_path = folder / "throttle.csv"
    lines = csv_path.read_text().splitlines()
    fields = lines[3].split(",")
    fields[-3] = "fast"
    lines[3] = ",".join(fields)
    csv_path.write_text("\n".join(lines) + "\n")
    assert_one_line_error(run_cli("plot", folder), "throttle.csv", "line 4", "'fast'")


def test_same_run_twice_is_refused(fixtures):
    with pytest.raises(InputError, match="overlapping run ids"):
        load_folders([fixtures / "shard-1", fixtures / "shard-1"])


def test_parent_folder_gets_a_hint(tmp_path):
    copy_folder("shard-1", tmp_path)
    assert_one_line_error(run_cli("plot", tmp_path), "holds no results", "shard-1")
