"""No import circle in the analysis package, counting the imports inside functions too.

A function-level import hides a circle from Python (the module is loaded by the time the function
runs) but not from a reader: two modules that need each other are one module in two files. Every
module's imports are read with `ast`, wherever they are, resolved to the package's modules, and
the graph must have no cycle. The control builds a package whose two modules import each other
inside functions, which Python imports without complaint, and shows the check names the circle."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "patternbench_analysis"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at `root` and the package modules it imports, anywhere in its text."""
    modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)  # `from . import module`
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import path per circle found by a depth-first walk (each circle reported once)."""
    found, state, stack = [], dict.fromkeys(graph, 0), []

    def visit(node: str) -> None:
        state[node], stack[len(stack) :] = 1, [node]
        for target in sorted(graph[node]):
            if state[target] == 1:
                found.append([*stack[stack.index(target) :], target])
            elif state[target] == 0:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if state[node] == 0:
            visit(node)
    return found


def test_the_analysis_package_has_no_import_cycle():
    graph = import_graph(PACKAGE)
    assert (
        "patternbench_analysis.report" in graph
        and "patternbench_analysis.markup" in graph["patternbench_analysis.compare"]
    )
    found = cycles(graph)
    assert not found, "import circles (move what both need into a module both import): " + "; ".join(
        " -> ".join(c) for c in found
    )


def test_control_a_function_level_circle_is_caught(tmp_path: Path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "report.py").write_text("def page():\n    from .compare import table\n    return table()\n")
    (package / "compare.py").write_text("def table():\n    from . import report\n    return report\n")
    (package / "leaf.py").write_text("import json\n")
    assert cycles(import_graph(package)) == [["pkg.compare", "pkg.report", "pkg.compare"]]
