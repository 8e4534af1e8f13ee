"""The exports, read by the real tools that consume them (Debian packages, servers on loopback).

- promtool (package `prometheus`) backfills every OpenMetrics export into TSDB blocks, and
  `promtool tsdb dump` gives back every CSV value at the run's time;
- a Pushgateway (`prometheus-pushgateway`) and node_exporter's textfile collector
  (`prometheus-node-exporter`) accept the `--no-timestamps` form and serve every value;
- an InfluxDB 1.x server (`influxdb`) keeps every point of three runs made in the same second.

Each test skips naming the missing package; PB_REQUIRE_REAL_TOOLS=1 (CI) makes that a failure.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import urllib.parse
from contextlib import contextmanager

import pytest
from conftest import FIXTURES, copy_folder, each_row, rewrite_results
from line_protocol import parse
from prometheus_client.parser import text_string_to_metric_families
from real_tools import free_port, http, require, server

from patternbench_analysis.export import influx, metric_name, openmetrics
from patternbench_analysis.results import load_folders

# Debian's Pushgateway persists to /var/lib/prometheus/pushgateway.data by default, so without this
# every test run (and every other user of the machine) would start with the groups of the last one:
# a stale group with other samples under the same grouping key makes the push fail its consistency check.
PUSHGATEWAY_MEMORY_ONLY = ["--persistence.file="]

FOLDERS = ["run", "live", "gated", "shard-1", "shard-2", "whole", "sweep-max-age-60", "sweep-max-age-100"]


def csv_values(folders) -> dict[tuple, float]:
    """(family, run_id, scenario, variant, mode, seed, repetition, host, factors) -> value, from the CSVs."""
    out = {}
    for workload, _, r, tags, factors in each_row(folders):
        out[(metric_name(f"patternbench_{workload}_{r['metric']}"), *tags, tuple(sorted(factors)))] = r["value"]
    return out


def key_of(name: str, labels: dict) -> tuple | None:
    labels = dict(labels)
    for ignored in ("job", "instance"):  # added by the Pushgateway
        labels.pop(ignored, None)
    if name == "patternbench_run_info" or "run_id" not in labels or not name.startswith("patternbench_"):
        return None
    fixed = [labels.pop(k) for k in ("run_id", "scenario", "variant", "mode", "seed", "repetition", "host")]
    return (name, *fixed, tuple(sorted(labels.items())))


def same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def assert_values(got: dict, want: dict) -> None:
    assert got.keys() == want.keys(), (sorted(set(want) - set(got))[:3], sorted(set(got) - set(want))[:3])
    wrong = [(k, got[k], want[k]) for k in want if not same(got[k], want[k])]
    assert not wrong, wrong[:3]


DUMP_LINE = re.compile(r"^\{(.*)\} (\S+) (-?\d+)$")
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


@pytest.mark.parametrize("name", FOLDERS)
def test_promtool_backfills_every_openmetrics_export(tmp_path, name):
    promtool = require("promtool", "prometheus")
    folders = load_folders([FIXTURES / name])
    export = tmp_path / "export.om"
    export.write_text(openmetrics(folders), encoding="utf-8")
    data = tmp_path / "tsdb"
    created = subprocess.run(
        [promtool, "tsdb", "create-blocks-from", "openmetrics", str(export), str(data)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert created.returncode == 0, created.stdout + created.stderr
    (data / "wal").mkdir(exist_ok=True)  # promtool 2.42's dump reads the (empty) WAL too
    dump = subprocess.run([promtool, "tsdb", "dump", str(data)], capture_output=True, text=True, timeout=120)
    assert dump.returncode == 0, dump.stderr
    created_ms = {}
    for folder in folders:
        for run in folder.runs.values():
            for source in run.sources():
                from patternbench_analysis.export import epoch_ns

                created_ms[source["run_id"]] = epoch_ns(source["created_utc"], "test") // 10**6
    got, info = {}, []
    for line in dump.stdout.splitlines():
        match = DUMP_LINE.match(line)
        assert match, line
        labels = {k: json.loads(f'"{v}"') for k, v in LABEL.findall(match.group(1))}
        name_ = labels.pop("__name__")
        assert int(match.group(3)) == created_ms[labels["run_id"]]  # at the run's time
        if name_ == "patternbench_run_info":
            info.append(labels)
            continue
        got[key_of(name_, labels)] = float(match.group(2))
    assert_values(got, csv_values(folders))
    assert {i["run_id"] for i in info} == set(created_ms)


@contextmanager
def pushgateway(tmp_path):
    """A Pushgateway on a free port, kept in memory, for the block; yields its base URL."""
    binary = require("prometheus-pushgateway", "prometheus-pushgateway")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    argv = [binary, f"--web.listen-address=127.0.0.1:{port}", *PUSHGATEWAY_MEMORY_ONLY]
    with server(argv, f"{base}/-/ready", tmp_path / "pushgateway.log"):
        yield base


def test_pushgateway_accepts_the_no_timestamps_form(tmp_path):
    folders = load_folders([FIXTURES / "run", FIXTURES / "shard-2"])
    with pushgateway(tmp_path) as base:
        from patternbench_analysis.pushgateway import push

        push(folders, base)  # one group per run, as documented (docs/analysis.md)
        status, scraped = http("GET", f"{base}/metrics")
        assert status == 200
    got = {}
    for family in text_string_to_metric_families(scraped):
        for sample in family.samples:
            key = key_of(sample.name, sample.labels)
            if key:
                got[key] = sample.value
    assert_values(got, csv_values(folders))
    assert "patternbench_run_info{" in scraped and 'param_max_age_ms="30"' in scraped


def test_pushgateway_refuses_what_it_cannot_read(tmp_path):
    """The control: the timestamped OpenMetrics form (info type) is refused, so the test above can fail."""
    folders = load_folders([FIXTURES / "shard-1"])
    with pushgateway(tmp_path) as base:
        status, body = http("PUT", f"{base}/metrics/job/patternbench", openmetrics(folders, timestamps=True).encode())
    assert status == 400, (status, body)


def test_node_exporter_textfile_collector_reads_the_no_timestamps_form(tmp_path):
    binary = require("prometheus-node-exporter", "prometheus-node-exporter")
    folders = load_folders([FIXTURES / "run", FIXTURES / "shard-2"])
    textfiles = tmp_path / "textfiles"
    textfiles.mkdir()
    (textfiles / "patternbench.prom").write_text(openmetrics(folders, timestamps=False), encoding="utf-8")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    argv = [
        binary,
        f"--web.listen-address=127.0.0.1:{port}",
        "--collector.disable-defaults",
        "--collector.textfile",
        f"--collector.textfile.directory={textfiles}",
    ]
    with server(argv, f"{base}/", tmp_path / "node-exporter.log"):
        status, scraped = http("GET", f"{base}/metrics")
    assert status == 200
    got, scrape_error = {}, None
    for family in text_string_to_metric_families(scraped):
        for sample in family.samples:
            if sample.name == "node_textfile_scrape_error":
                scrape_error = sample.value
            key = key_of(sample.name, sample.labels)
            if key:
                got[key] = sample.value
    assert scrape_error == 0
    assert_values(got, csv_values(folders))


INFLUX_CONFIG = """reporting-disabled = true
bind-address = "127.0.0.1:{rpc}"
[meta]
  dir = "{root}/meta"
[data]
  dir = "{root}/data"
  wal-dir = "{root}/wal"
  query-log-enabled = false
[http]
  bind-address = "127.0.0.1:{http}"
  log-enabled = false
[monitor]
  store-enabled = false
[ifql]
  enabled = false
[logging]
  level = "error"
"""


def three_runs_in_one_second(tmp_path):
    """shard-1 three times: distinct run ids, one created_utc, different values."""
    folders = []
    for k in range(3):
        folder = copy_folder("shard-1", tmp_path / f"copy{k}")
        run_id = f"throttle-20261121T075142Z-000{k}"
        rewrite_results(
            folder, "throttle", lambda r, run_id=run_id, k=k: r.update(run_id=run_id, value=str(float(r["value"]) + k))
        )
        doc = json.loads((folder / "throttle.json").read_text())
        doc["run_id"] = run_id
        (folder / "throttle.json").write_text(json.dumps(doc))
        folders.append(folder)
    return load_folders(folders)


def influx_rows(base: str, db: str) -> list[dict]:
    query = urllib.parse.urlencode({"db": db, "q": "SELECT * FROM patternbench_throttle"})
    status, body = http("GET", f"{base}/query?{query}")
    assert status == 200, body
    result = json.loads(body)["results"][0]
    rows = []
    for series in result.get("series", []):
        rows += [dict(zip(series["columns"], values, strict=False)) for values in series["values"]]
    return rows


def test_influxdb_keeps_every_point_of_three_runs_made_in_the_same_second(tmp_path):
    influxd = require("influxd", "influxdb")
    folders = three_runs_in_one_second(tmp_path)
    assert len({f.runs["throttle"].document["created_utc"] for f in folders}) == 1
    text = influx(folders)
    points = parse(text)
    http_port, rpc_port = free_port(), free_port()
    root = tmp_path / "influxdb"
    root.mkdir()
    config = root / "influxdb.conf"
    config.write_text(INFLUX_CONFIG.format(rpc=rpc_port, root=root, http=http_port))
    base = f"http://127.0.0.1:{http_port}"
    with server([influxd, "run", "-config", str(config)], f"{base}/ping", tmp_path / "influxd.log", timeout=30):
        for db in ("patternbench", "control"):
            assert http("POST", f"{base}/query?" + urllib.parse.urlencode({"q": f"CREATE DATABASE {db}"}))[0] == 200
        status, body = http("POST", f"{base}/write?db=patternbench&precision=ns", text.encode())
        assert status == 204, body
        rows = influx_rows(base, "patternbench")
        # The control: without the run_id tag (as before: a field), the three runs collide in one point.
        collided = "\n".join(re.sub(r",run_id=[^, ]+", "", line) for line in text.splitlines()) + "\n"
        assert http("POST", f"{base}/write?db=control&precision=ns", collided.encode())[0] == 204
        control = influx_rows(base, "control")
    assert len(rows) == len(points) == 3 * len(control)
    want = {}
    for p in points:
        for field, value in p["fields"].items():
            want[(p["tags"]["run_id"], p["tags"]["scenario"], p["tags"]["variant"], p["tags"]["seed"], field)] = value
    got = {}
    for row in rows:
        for field in (k for k in row if k not in ("time",) and not isinstance(row[k], str) and row[k] is not None):
            got[(row["run_id"], row["scenario"], row["variant"], row["seed"], field)] = row[field]
    assert got == want
    assert {row["run_id"] for row in rows} == {f"throttle-20261121T075142Z-000{k}" for k in range(3)}
    assert {row["param_max_age_ms"] for row in rows} == {"30"}


def scraped_values(scraped: str) -> tuple[dict, set[str]]:
    """(CSV key -> value, run ids with a patternbench_run_info sample) of a Pushgateway's /metrics."""
    got, info = {}, set()
    for family in text_string_to_metric_families(scraped):
        for sample in family.samples:
            if sample.name == "patternbench_run_info":
                info.add(sample.labels["run_id"])
            key = key_of(sample.name, sample.labels)
            if key:
                got[key] = sample.value
    return got, info


PUSHED = [
    *FOLDERS,
    "cache/sweep",
    "cache/trace",
    "group",
    "readiness",
    "invalidation",
    "invalidation-live",
    "lifecycle",
    "lifecycle-live",
    "atomics-ns",
    "compare-source",
    "history-source",
]


def test_pushgateway_keeps_every_run_pushed_one_group_per_run(tmp_path):
    """`export --push`: two runs pushed one after the other are both there, run info and every value;
    pushing a run again replaces only that run. The control: the same two pushes to one group (the
    URL documented before) keep only the second run's run info."""
    from conftest import run_cli

    binary = require("prometheus-pushgateway", "prometheus-pushgateway")
    first, second = FIXTURES / "shard-1", FIXTURES / "shard-2"
    ids = {
        name: {s["run_id"] for r in load_folders([folder])[0].runs.values() for s in r.sources()}
        for name, folder in (("first", first), ("second", second))
    }
    assert ids["first"] and ids["second"] and not ids["first"] & ids["second"]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(
        [binary, f"--web.listen-address=127.0.0.1:{port}", *PUSHGATEWAY_MEMORY_ONLY],
        f"{base}/-/ready",
        tmp_path / "pushgateway.log",
    ):
        for folder in (first, second, first):  # the third push repeats the first run: replaced, not doubled
            result = run_cli("export", "-f", "openmetrics", "--push", base, folder)
            assert result.returncode == 0, result.stderr
            assert all(
                f"/metrics/job/patternbench/run_id/{i}" in result.stdout
                for i in ids["first" if folder == first else "second"]
            )
        status, scraped = http("GET", f"{base}/metrics")
        assert status == 200
        got, info = scraped_values(scraped)
        assert info == ids["first"] | ids["second"]
        assert_values(got, csv_values(load_folders([first, second])))

        # every fixture folder of every workload: one group each, all kept
        from patternbench_analysis.pushgateway import push

        every = [FIXTURES / f for f in PUSHED]
        pushed = [url for folder in every for url in push(load_folders([folder]), base)]
        status, scraped = http("GET", f"{base}/metrics")
        _, info = scraped_values(scraped)
        everyone = {s["run_id"] for f in every for r in load_folders([f])[0].runs.values() for s in r.sources()}
        assert len(pushed) == len(everyone) and everyone <= info

        # control: one group for every run, as the old docs said
        for run_id in info:
            http("DELETE", f"{base}/metrics/job/patternbench/run_id/{run_id}")
        for folder in (first, second):
            status, body = http(
                "PUT",
                f"{base}/metrics/job/patternbench",
                openmetrics(load_folders([folder]), timestamps=False).encode(),
            )
            assert status == 200, body
        status, scraped = http("GET", f"{base}/metrics")
        _, info = scraped_values(scraped)
        assert info == ids["second"]  # the first run's info is gone


def test_push_to_nowhere_is_one_line(tmp_path):
    from conftest import assert_one_line_error, run_cli

    port = free_port()  # nothing listens there
    assert_one_line_error(
        run_cli("export", "-f", "openmetrics", "--push", f"http://127.0.0.1:{port}", FIXTURES / "shard-1"),
        "cannot reach the Pushgateway",
    )
