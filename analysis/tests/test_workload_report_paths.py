"""A workload has one report path, and the types hold its rule: no report can call another that
calls it back.

The driver asks every workload for `report(_:summaries:complete:)`. `ItemKeepingWorkload` gives it a
default that calls the workload's list report, which no protocol gives a default; `FoldingWorkload`
gives it none. So a folding workload that forgets its own report does not compile (it used to: with
the default aggregate it took the item-keeping default, and the two reports called each other until
the stack ran out). This test type-checks two small workloads against the built Measurement module:
one that keeps its items (it compiles: the control that the check itself works) and the same one
declared folding (it must not)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

WORKLOAD = """import Measurement
import Records

struct Keeping: {protocol} {{
    static let name = "keeping"
    static var catalogue: WorkloadCatalogue {{ WorkloadCatalogue(sections: []) }}
    var factorNames: [String] {{ [] }}
    var items: [Int] {{ [1, 2] }}
    var parameters: [String: JSONValue] {{ [:] }}
    func label(_ item: Int) -> String {{ "\\(item)" }}
    func run(_ item: Int) throws -> Int {{ item }}
    func observations(for item: Int, sample: Int) -> [LabelledObservations] {{ [] }}
    func report(_ results: [FinishedItem<Int, Int>], complete: Bool) throws -> WorkloadReport {{
        WorkloadReport(table: "")
    }}
}}
"""


def typecheck(source: str, tmp_path: Path) -> subprocess.CompletedProcess:
    bin_dir = os.environ.get("PB_BIN_DIR")
    if not bin_dir or not shutil.which("swiftc"):
        pytest.skip("PB_BIN_DIR with the built modules, and swiftc, are needed to type-check a workload")
    build = Path(bin_dir).resolve()
    modules = build / "Modules"
    if not (modules / "Measurement.swiftmodule").exists():
        pytest.skip(f"{modules} holds no Measurement module (build first)")
    args = ["swiftc", "-typecheck", "-I", str(modules)]
    # The C modules Measurement imports, as SwiftPM's build made their maps.
    maps = sorted(build.glob("*.build/module.modulemap")) + sorted(
        build.parent.parent.glob("checkouts/swift-numerics/Sources/_NumericsShims/include/module.modulemap")
    )
    for modulemap in maps:
        args += ["-Xcc", f"-fmodule-map-file={modulemap}"]
    file = tmp_path / "Workload.swift"
    file.write_text(source)
    return subprocess.run([*args, str(file)], capture_output=True, text=True)


def test_a_workload_that_keeps_its_items_compiles(tmp_path: Path):
    """The control: the same source, item-keeping, type-checks, so a failure below is the rule's."""
    checked = typecheck(WORKLOAD.format(protocol="ItemKeepingWorkload"), tmp_path)
    assert checked.returncode == 0, checked.stderr


def test_a_folding_workload_without_its_own_report_does_not_compile(tmp_path: Path):
    checked = typecheck(WORKLOAD.format(protocol="FoldingWorkload"), tmp_path)
    assert checked.returncode != 0, "a FoldingWorkload without report(_:summaries:complete:) compiled"
    assert "does not conform to protocol 'Workload'" in checked.stderr, checked.stderr
