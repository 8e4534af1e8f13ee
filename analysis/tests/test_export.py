"""Dashboard exports: InfluxDB line protocol and OpenMetrics, validated against their specs and parsed back."""

import math
import re
from datetime import UTC, datetime

import pytest
from conftest import copy_folder, each_row, rewrite_results, run_cli
from line_protocol import LineProtocolError, parse, parse_line
from prometheus_client.openmetrics.parser import text_string_to_metric_families
from prometheus_client.parser import text_string_to_metric_families as text_format_families

from patternbench_analysis.export import influx, openmetrics
from patternbench_analysis.results import load_folders

WEIRD = 'storm, "slow" = \\ x\nnext'  # comma, space, quotes, equals, backslash and a newline


def epoch(created: str) -> int:
    return int(datetime.strptime(created, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp())


def expected_rows(folders):
    """Every row of every table as (workload, run_id, tags..., metric) -> (value, created seconds)."""
    rows = {}
    for workload, run, r, tags, factors in each_row(folders):
        created = next(epoch(s["created_utc"]) for s in run.sources() if s["run_id"] == r["run_id"])
        rows[(workload, *tags, factors, r["metric"])] = (r["value"], created)
    return rows


@pytest.fixture
def folders(fixtures):
    return load_folders([fixtures / "run", fixtures / "shard-2"])


# ---------------------------------------------------------------- InfluxDB line protocol


def test_influx_parses_back_to_every_finite_row(folders):
    text = influx(folders)
    points = parse(text)
    got = {}
    for p in points:
        workload = p["measurement"].removeprefix("patternbench_")
        tags = dict(p["tags"])
        run_id = tags.pop("run_id")
        fixed = [tags.pop(k) for k in ("scenario", "variant", "mode", "seed", "repetition", "host")]
        factors = tuple(sorted((k, v) for k, v in tags.items() if not k.startswith("param_")))
        assert "run_id" not in p["fields"]  # a tag now: runs made in the same second stay distinct points
        for field, value in p["fields"].items():
            key = (workload, run_id, *fixed, factors, field)
            assert key not in got
            got[key] = (value, p["timestamp"] // 10**9)
            assert p["timestamp"] % 10**9 == 0
    want = {
        (w, r, s, v, m, se, re_, h, tuple(sorted(f)), metric): val
        for (w, r, s, v, m, se, re_, h, f, metric), val in expected_rows(folders).items()
        if math.isfinite(val[0])
    }
    assert got == want
    assert len(points) < len(want)  # one point carries all metrics of a (run, scenario, variant, seed) cell


def test_influx_lines_follow_the_spec(folders):
    text = influx(folders)
    assert text.endswith("\n")
    for line in text.splitlines():
        point = parse_line(line)
        assert list(point["tags"]) == sorted(point["tags"])  # sorted tags, as the docs recommend
        assert all(isinstance(v, float) for v in point["fields"].values())
        assert not re.search(r"\d+[iu](,| |$)", line.split(" ")[1])  # floats only: no type conflicts between runs


def test_influx_precision(fixtures):
    folders = load_folders([fixtures / "shard-1"])
    created = epoch(folders[0].runs["throttle"].document["created_utc"])
    for precision, factor in (("s", 1), ("ms", 10**3), ("us", 10**6), ("ns", 10**9)):
        assert {p["timestamp"] for p in parse(influx(folders, precision))} == {created * factor}


def test_influx_escaping_round_trips(tmp_path):
    folder = copy_folder("shard-1", tmp_path)

    def change(record):
        record["scenario"] = WEIRD + record["scenario"]
        if record["scenario"].endswith("bursts"):
            record["variant"] = "frame budget=30,ms"

    rewrite_results(folder, "throttle", change)
    text = influx(load_folders([folder]))
    points = [parse_line(line) for line in text.splitlines() if not line.startswith("#")]
    assert len(points) == 4  # shard 1/2 of 2 scenarios x 2 seeds x 2 policies
    for point in points:
        assert point["tags"]["scenario"].startswith(WEIRD.replace("\n", " "))  # newlines cannot be represented
    assert {p["tags"]["variant"] for p in points} == {"frame budget=30,ms", "immediate"}
    assert r'scenario=storm\,\ "slow"\ \=\ \\\ x\ next' in text


def test_influx_leaves_out_non_finite_values_and_says_so(tmp_path):
    folder = copy_folder("shard-1", tmp_path)

    def make_inf(record):  # exactly one row: immediate's p99 for one seed, the same in CSV and JSON
        if (
            record["metric"] == "latency_p99_ms"
            and record["variant"] == "immediate"
            and str(record["seed"]) == "1"
            and record["scenario"] == "steady"
        ):
            record["value"] = "inf"

    rewrite_results(folder, "throttle", make_inf)
    text = run_cli("export", "-f", "influx", folder).stdout
    assert text.startswith("# 1 non-finite values (inf/nan) left out")
    assert "inf" not in "".join(line for line in text.splitlines() if not line.startswith("#")).replace("info", "")
    parse(text)


def test_parser_rejects_what_the_spec_forbids():
    for bad in [
        "m,t=a\\ b f=inf 1",
        "m,t= f=1 1",
        "_m f=1 1",
        "m f=1 1.5",
        'm,t=a f="x 1',
        "m,t=a b=1,b=2 1",
        "m,t=a,t=b f=1 1",
    ]:
        with pytest.raises(LineProtocolError):
            parse_line(bad)


# ---------------------------------------------------------------- OpenMetrics

NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
LABEL = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


def test_openmetrics_parses_back_to_every_row(folders):
    text = openmetrics(folders)
    families = list(text_string_to_metric_families(text))  # the reference parser is strict about the spec
    got = {}
    for family in families:
        if family.type == "info":
            continue
        assert family.type == "gauge"
        for sample in family.samples:
            labels = dict(sample.labels)
            run_id = labels.pop("run_id")
            fixed = [labels.pop(k) for k in ("scenario", "variant", "mode", "seed", "repetition", "host")]
            workload = run_id.split("-")[0]
            metric = sample.name.removeprefix(f"patternbench_{workload}_")
            got[(workload, run_id, *fixed, tuple(sorted((k, v) for k, v in labels.items() if v != "")), metric)] = (
                sample.value,
                int(sample.timestamp.sec),
            )
    want = {
        (w, r, s, v, m, se, re_, h, tuple(sorted(f)), metric): val
        for (w, r, s, v, m, se, re_, h, f, metric), val in expected_rows(folders).items()
    }
    assert got.keys() == want.keys()
    for key, (value, ts) in want.items():
        assert got[key][1] == ts
        assert got[key][0] == value or (math.isnan(value) and math.isnan(got[key][0]))
    info = next(f for f in families if f.name == "patternbench_run")
    assert {s.labels["host"] for s in info.samples} == {"vm", "ci-runner-2"}


def test_openmetrics_structure_follows_the_spec(folders):
    text = openmetrics(folders)
    assert text.endswith("# EOF\n") and text.count("# EOF") == 1
    declared, current = [], None
    for line in text.splitlines()[:-1]:
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert NAME.match(name) and kind in ("gauge", "info") and name not in declared
            declared.append(name)
            current = name
        elif line.startswith("# UNIT "):
            _, _, name, unit = line.split(" ")
            assert name == current and name.endswith("_" + unit)
        elif line.startswith("# HELP "):
            assert line.split(" ")[2] == current
        else:
            m = re.match(r"^([^{]+)\{(.*)\} (\S+)( \d+)?$", line)
            assert m, line
            assert m.group(1) == current or m.group(1) == current + "_info"  # families are contiguous
            for label in re.findall(r'(?:^|,)([^=,]+)="', m.group(2)):
                assert LABEL.match(label) and not label.startswith("__")
            assert m.group(4) is not None  # timestamps in seconds on every sample, the run info too (promtool)
    assert "# UNIT patternbench_throttle_latency_p99_ms ms" in text
    assert "# UNIT patternbench_throttle_hitch_ms_per_s ms_per_s" in text


def test_openmetrics_without_timestamps_is_the_text_format(fixtures):
    """Pushgateway and the textfile collector read text format 0.0.4: no info type, no timestamps."""
    text = run_cli("export", "-f", "openmetrics", "--no-timestamps", fixtures / "shard-1").stdout
    assert "# TYPE patternbench_run_info gauge" in text and "# TYPE patternbench_run info" not in text
    assert "# EOF" not in text and "# UNIT" not in text
    families = list(text_format_families(text))
    assert all(s.timestamp is None for f in families for s in f.samples)
    assert {f.type for f in families} == {"gauge"}


def test_openmetrics_escaping_and_non_finite_values_round_trip(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    special = {("steady", "1"): "inf", ("steady", "2"): "-inf", ("bursts", "1"): "nan"}  # shard 1 is all immediate

    def change(record):
        if record["metric"] == "latency_p99_ms":
            record["value"] = special.get((record["scenario"], str(record["seed"])), record["value"])
        record["scenario"] = WEIRD + record["scenario"]

    rewrite_results(folder, "throttle", change)
    text = openmetrics(load_folders([folder]))
    assert 'scenario="storm, \\"slow\\" = \\\\ x\\nnextsteady"' in text
    assert " +Inf " in text and " -Inf " in text and " NaN " in text, sorted(special)
    samples = [s for f in text_string_to_metric_families(text) for s in f.samples if s.name.endswith("p99_ms")]
    assert {s.labels["scenario"] for s in samples} == {WEIRD + "steady", WEIRD + "bursts"}
    values = [s.value for s in samples]
    assert math.inf in values and -math.inf in values and any(math.isnan(v) for v in values)


def test_factor_columns_become_labels_and_tags(fixtures):
    folders = load_folders([fixtures / "run"])
    om = openmetrics(folders)
    assert re.search(r'patternbench_atomics_ns_per_op\{[^}]*threads="4",cs_work_ns="0",gap_work_ns="0"', om)
    assert re.search(r'patternbench_clock_max_abs_error_us\{[^}]*client="duration-meter"', om)
    points = [p for p in parse(influx(folders)) if p["measurement"] == "patternbench_atomics"]
    assert {p["tags"]["threads"] for p in points} == {"1", "2", "4"}


def test_export_cli_writes_a_file(tmp_path, fixtures):
    out = tmp_path / "nightly.lp"
    result = run_cli("export", "-f", "influx", fixtures / "run", "-o", out)
    assert result.returncode == 0 and result.stdout == "", result.stderr
    assert len(parse(out.read_text())) > 50


def test_duplicate_cells_are_refused_not_silently_collapsed(tmp_path):
    folder = copy_folder("shard-1", tmp_path)
    rewrite_results(folder, "throttle", lambda r: r.update(scenario="same"))  # steady and bursts now collide
    for fmt in ("influx", "openmetrics"):
        result = run_cli("export", "-f", fmt, folder)
        assert result.returncode == 1 and "two rows for" in result.stderr and len(result.stderr.splitlines()) == 1


def test_run_parameters_travel_in_every_export(fixtures):
    folders = load_folders([fixtures / "sweep-max-age-60", fixtures / "sweep-max-age-100"])
    points = parse(influx(folders))
    assert {p["tags"]["param_max_age_ms"] for p in points} == {"60", "100"}
    for timestamps in (True, False):
        text = openmetrics(folders, timestamps=timestamps)
        parse_families = text_string_to_metric_families if timestamps else text_format_families
        info = [s for f in parse_families(text) for s in f.samples if s.name == "patternbench_run_info"]
        assert {s.labels["param_max_age_ms"] for s in info} == {"60", "100"}
        assert all(s.labels["run_id"] for s in info)


def test_fractional_created_utc_keeps_nanoseconds(tmp_path):
    import json

    folder = copy_folder("shard-1", tmp_path)
    doc = json.loads((folder / "throttle.json").read_text())
    doc["created_utc"] = doc["created_utc"].replace("Z", ".123456789Z")
    (folder / "throttle.json").write_text(json.dumps(doc))
    stamps = {p["timestamp"] for p in parse(influx(load_folders([folder])))}
    assert len(stamps) == 1 and stamps.pop() % 10**9 == 123456789
    assert " 1795247" in openmetrics(load_folders([folder])) and ".123456789\n" in openmetrics(load_folders([folder]))
