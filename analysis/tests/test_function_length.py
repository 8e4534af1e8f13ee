"""No function in Sources/ runs over 120 lines (scripts/long-functions.py).

A long function hides its steps: to follow any part of it the reader holds all of its state. The
script measures every Swift function, initializer, accessor and closure body; this test runs it
over Sources/ and, as its control, over planted files it must catch (and look-alikes it must not)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "long-functions.py"


def load():
    spec = importlib.util.spec_from_file_location("long_functions", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["long_functions"] = module
    spec.loader.exec_module(module)
    return module


def body(lines: int) -> str:
    return "".join(f"        let x{n} = {n}\n" for n in range(lines))


def test_no_function_in_sources_runs_over_120_lines():
    run = subprocess.run([sys.executable, str(SCRIPT)], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, "split these into named steps (at most 120 lines each):\n" + run.stdout + run.stderr


def test_a_planted_long_function_closure_and_initializer_are_found(tmp_path: Path):
    """The control: 121 lines of function, closure or init are caught; 120 are not."""
    lf = load()
    long_func = "struct S {\n    func long() {\n" + body(119) + "    }\n}\n"  # { line + 119 + } line = 121
    just_fits = "struct S {\n    func fits() {\n" + body(118) + "    }\n}\n"
    closure = "let c: () -> Void = {\n" + body(119) + "}\n"
    initializer = "final class C {\n    init(a: Int) {\n" + body(119) + "    }\n}\n"
    assert [(f.kind, f.name, f.lines) for f in lf.long_blocks(long_func, "a.swift")] == [("func", "long", 121)]
    assert lf.long_blocks(just_fits, "b.swift") == []
    assert [(f.kind, f.lines) for f in lf.long_blocks(closure, "c.swift")] == [("closure", 121)]
    assert [(f.kind, f.lines) for f in lf.long_blocks(initializer, "d.swift")] == [("init", 121)]
    (tmp_path / "a.swift").write_text(long_func)
    run = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 1 and "func long 121 lines" in run.stdout


def test_types_control_flow_strings_and_comments_are_not_functions():
    """A long type body is not a function, nor is an `if` inside a short-enough function; a brace
    inside a string, an interpolation or a comment does not open or close anything."""
    lf = load()
    long_type = "enum Registry {\n" + "".join(f"    static let x{n} = {n}\n" for n in range(200)) + "}\n"
    assert lf.long_blocks(long_type, "t.swift") == []
    tricky = (
        "struct S {\n    func f() {\n"
        '        let a = "{ not a brace \\(g({ $0 })) }"\n'
        '        let b = #"raw { "# + """\n        } multi {\n        """\n'
        "        // } a comment\n        /* { nested /* } */ } */\n"
        "        if a.isEmpty {\n" + body(60) + "        }\n" + body(40) + "    }\n}\n"
    )
    findings = lf.long_blocks(tricky, "s.swift", limit=100)
    assert [(f.name, f.lines) for f in findings] == [("f", 110)]
