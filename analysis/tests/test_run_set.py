"""The report reads a run set once: each file of its folders is read once, and the folders are
grouped by workload once, however many tables and charts then use them.

Every reader of a results folder (`read_document`, `read_table`, `read_events`) and the grouping
(`results.workloads`, which lists a run set's workloads) is wrapped with a counter wherever the
package's modules bound it, and the real `report` command runs in this process. The control shows
the counters see a second pass: grouping the same folders twice counts two."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import small_run_set

from patternbench_analysis import __main__ as cli
from patternbench_analysis import results
from patternbench_analysis.run_set import RunSet

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def counted(monkeypatch) -> Counter:
    """Counts per (function, file) for the readers, per function for the grouping."""
    counts: Counter = Counter()

    def counting(name, original, keyed):
        def wrapper(*args, **kwargs):
            counts[(name, Path(args[0]).name) if keyed else name] += 1
            return original(*args, **kwargs)

        return wrapper

    for name, keyed in (("read_document", True), ("read_table", True), ("read_events", True), ("workloads", False)):
        original = getattr(results, name)
        wrapper = counting(name, original, keyed)
        for module in [m for n, m in sys.modules.items() if n.startswith("patternbench_analysis")]:
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, wrapper)
    return counts


def test_the_report_reads_each_file_once_and_groups_the_run_set_once(counted, tmp_path, capsys):
    folder = small_run_set(tmp_path / "in")
    assert cli.main(["report", str(folder), "-o", str(tmp_path / "r"), "--quiet"]) == 0
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert all(f'id="workload-{w}"' in page for w in ("throttle", "atomics", "clock"))
    files = {"throttle", "atomics", "clock"}
    assert {k: v for k, v in counted.items() if k != "workloads"} == (
        {("read_document", f"{w}.json"): 1 for w in files}
        | {("read_table", f"{w}.csv"): 1 for w in files}
        | {("read_events", "events.csv"): 1}
    )
    assert counted["workloads"] == 1, "the report grouped its folders more than once: hand the RunSet down"


def test_control_a_second_grouping_is_counted(counted):
    folders = results.load_folders([FIXTURES / "run"])
    RunSet.of(folders)
    assert RunSet.of(RunSet.of(folders)) is not None
    assert counted["workloads"] == 2
    results.load_folders([FIXTURES / "run"])
    assert counted[("read_table", "throttle.csv")] == 2
