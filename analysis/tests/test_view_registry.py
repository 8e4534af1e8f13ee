"""The analysis side's registry of views (view_registry) names exactly the Swift registry's workloads.

workloads.json is `bench-gate --list-workloads --json` (the Swift test WorkloadRegistryTests keeps it
equal to the binary's output); each workload registers its charts and headline tables in
views/<workload>.py. A workload in Swift without a view, or a view of a workload Swift does not
have, fails here with the file to add or remove. No module outside views/ branches on a workload's
name: that is what the registry replaces."""

from __future__ import annotations

import ast
from pathlib import Path

from patternbench_analysis.view_registry import generic_view, mismatches, view_for, views
from patternbench_analysis.workloads import registry

PACKAGE = Path(__file__).resolve().parents[1] / "patternbench_analysis"


def test_every_swift_workload_has_a_view_and_every_view_a_swift_workload():
    problems = mismatches(registry(), views())
    assert not problems, "\n".join(problems)
    assert list(views()) == list(registry()), "views() keeps the Swift registry's order"
    assert all(view_for(w).workload == w for w in registry())


def test_control_a_workload_on_one_side_only_is_named_with_its_file():
    problems = mismatches(["throttle", "debounce"], ["throttle", "retired"])
    assert len(problems) == 2
    assert "'debounce' is in the Swift registry" in problems[0] and "views/debounce.py" in problems[0]
    assert "views/retired.py registers workload 'retired'" in problems[1]
    assert mismatches(["throttle"], ["throttle"]) == []


def test_the_generic_view_is_what_a_new_workload_starts_with():
    view = generic_view("debounce")
    assert view.workload == "debounce" and view.probe is None
    template = Path(__file__).resolve().parents[2] / "scripts/workload-template/analysis/patternbench_analysis/views"
    assert 'generic_view("skeleton")' in (template / "skeleton.py").read_text(encoding="utf-8")


def workload_branches(path: Path) -> list[str]:
    """`workload == "name"` (or `!=`, `in`) comparisons against string literals in one file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "workload":
            literals = [c for c in node.comparators if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            if literals:
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_module_outside_the_views_branches_on_a_workload_name(tmp_path: Path):
    branches = [b for p in sorted(PACKAGE.rglob("*.py")) if "views" not in p.parts for b in workload_branches(p)]
    assert not branches, f"register the workload's charts or tables in views/ instead: {branches}"
    control = tmp_path / "plot.py"
    control.write_text('def draw(workload):\n    if workload == "throttle":\n        return 1\n')
    assert workload_branches(control) == ["plot.py:2"]
