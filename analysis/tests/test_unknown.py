"""Metrics and workloads this package does not know are carried along, never dropped or fatal."""

import json
import re

from conftest import copy_folder, run_cli
from line_protocol import parse

from patternbench_analysis.export import label_names


def make_unknown_workload(tmp_path):
    """shard-1 relabelled as a workload `futex` with factor-free rows and one extra, unknown metric."""
    folder = copy_folder("shard-1", tmp_path)
    for ext in ("csv", "json"):
        (folder / f"throttle.{ext}").rename(folder / f"futex.{ext}")
    doc = json.loads((folder / "futex.json").read_text())
    doc["workload"] = "futex"
    extra = dict(doc["records"][0], metric="wobble_per_op", value=1.5, unit="1/op", workload="futex")
    for r in doc["records"]:
        r["workload"] = "futex"
    doc["records"].append(extra)
    (folder / "futex.json").write_text(json.dumps(doc))
    lines = (folder / "futex.csv").read_text().splitlines()
    lines = [lines[0]] + [line.replace(",throttle,", ",futex,", 1) for line in lines[1:]]
    fields = lines[1].split(",")
    fields[-4:-1] = ["wobble_per_op", "1.5", "1/op"]
    lines.append(",".join(fields))
    (folder / "futex.csv").write_text("\n".join(lines) + "\n")
    return folder


def test_unknown_workload_and_metric_flow_through(tmp_path):
    folder = make_unknown_workload(tmp_path)
    plot = run_cli("plot", folder, "-o", tmp_path / "charts")
    assert plot.returncode == 0 and "no charts for workload 'futex'" in plot.stderr
    report = run_cli("report", folder, "-o", tmp_path / "r")
    assert report.returncode == 0, report.stderr
    md = (tmp_path / "r/summary.md").read_text()
    assert "## futex" in md and re.search(r"\| wobble_per_op \| 1/op \| 1 \| 1.5 \|", md)
    influx = run_cli("export", "-f", "influx", folder).stdout
    assert any(
        p["measurement"] == "patternbench_futex" and p["fields"].get("wobble_per_op") == 1.5 for p in parse(influx)
    )
    om = run_cli("export", "-f", "openmetrics", folder).stdout
    assert "# TYPE patternbench_futex_wobble_per_op gauge" in om


def test_factor_names_become_valid_collision_free_labels():
    names = label_names(["cs-work", "host", "__x", "1st", "cs_work", "ok"], reserved={"host", "run_id"})
    assert all(re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]*", n) and not n.startswith("__") for n in names.values())
    assert len(set(names.values())) == len(names)
    assert names["host"] == "factor_host" and names["ok"] == "ok"
