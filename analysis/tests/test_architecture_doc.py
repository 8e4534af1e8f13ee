"""docs/architecture.md's module table is the graph Package.swift declares, module for module.

The table is what a newcomer reads first; a module added, split or given a new dependency without
the table following would teach them a graph that is not there. The manifest is read through
`swift package dump-package`, so however Package.swift builds its target list, what is compared
is what SwiftPM sees.
"""

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "architecture.md"


def documented_graph(text: str) -> dict[str, set[str]]:
    """The table between the module-graph markers: module -> the targets it depends on."""
    block = re.search(r"<!-- module-graph: begin -->\n(.*?)<!-- module-graph: end -->", text, re.S)
    assert block, "docs/architecture.md has no module-graph table"
    graph = {}
    for line in block.group(1).splitlines()[2:]:  # after the header and its rule
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        graph[cells[0].strip("`")] = set(re.findall(r"`([^`]+)`", cells[1]))
    return graph


def declared_graph() -> dict[str, set[str]]:
    """Every Swift library module under Sources/ -> the package's targets it depends on."""
    if shutil.which("swift") is None:
        pytest.skip("swift is not installed: the manifest cannot be read")
    # A scratch path of its own and no manifest cache: SwiftPM locks the scratch path, and CI runs
    # this beside `swift test` and the sanitized build, which hold .build/ (and .build-tsan/) for
    # minutes; waiting on their lock timed this test out after 300 s in one CI run.
    with tempfile.TemporaryDirectory(prefix="pb-dump-package-") as scratch:
        dump = subprocess.run(
            ["swift", "package", "--scratch-path", scratch, "--manifest-cache", "none", "dump-package"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert dump.returncode == 0, dump.stderr
    graph = {}
    for target in json.loads(dump.stdout)["targets"]:
        folder = REPO / "Sources" / target["name"]
        if target["type"] != "regular" or target.get("path") or not any(folder.rglob("*.swift")):
            continue
        deps = set()
        for dep in target.get("dependencies", []):
            kind, value = next(iter(dep.items()))
            if kind in ("byName", "target"):
                deps.add(value[0])
        graph[target["name"]] = deps
    return graph


def differences(documented: dict[str, set[str]], declared: dict[str, set[str]]) -> list[str]:
    problems = [f"{m}: in Package.swift, not in the table" for m in sorted(declared.keys() - documented.keys())]
    problems += [
        f"{m}: in the table, not a Swift module of Package.swift" for m in sorted(documented.keys() - declared.keys())
    ]
    for m in sorted(documented.keys() & declared.keys()):
        if documented[m] != declared[m]:
            problems.append(f"{m}: the table says {sorted(documented[m])}, Package.swift {sorted(declared[m])}")
    return problems


def test_the_module_table_is_the_manifests_graph():
    declared = declared_graph()
    assert {"Records", "Timelines", "Measurement", "Verdicts", "Processes"} <= declared.keys()
    assert differences(documented_graph(DOC.read_text(encoding="utf-8")), declared) == []


def test_a_table_that_drops_an_edge_or_a_module_is_caught():
    """The control: the same comparison on a doctored copy of the table must fail."""
    declared = declared_graph()
    text = DOC.read_text(encoding="utf-8")
    dropped_edge = text.replace("| `Timelines` | `Records` |", "| `Timelines` | — |", 1)
    assert dropped_edge != text
    assert any(p.startswith("Timelines:") for p in differences(documented_graph(dropped_edge), declared))
    dropped_module = re.sub(r"\n\| `Verdicts` \|[^\n]*", "", text, count=1)
    assert dropped_module != text
    assert "Verdicts: in Package.swift, not in the table" in differences(documented_graph(dropped_module), declared)
