"""No tracked file points at an issue by number ("issue N", "issues N and M", "(#N)").

The issue tracker is not part of the repository, so a reader of the tree cannot open those issues:
a comment or a doc says *why* in its own words, and the history of a change lives in git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# "issue N", "Issue #N", "issues N and M", "issue-N", and a bare "(#N)" or "#N's", N a number.
ISSUE_REFERENCE = re.compile(r"\bissues?[ -]?#?\d+|\(#\d+\)|(?<![\w/])#\d+'s\b", re.IGNORECASE)
# The same wrapped over two lines: "issue" ends one line and the number opens the next, after any
# comment marker or list dash (a reflowed paragraph hid one in a guide).
WRAPPED_START = re.compile(r"\bissues?$", re.IGNORECASE)
WRAPPED_END = re.compile(r"^(?://+|#+|\*|-)?\s*#?\d+\b")


def issue_references(root: Path, paths: list[str]) -> list[str]:
    """Every line of `paths` (relative to `root`) that names an issue by number, as "path:line: text"."""
    found = []
    for path in paths:
        file = root / path
        if not file.is_file():
            continue  # a deleted file git still lists, or a submodule
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary (images, compressed traces)
        lines = text.splitlines()
        for number, line in enumerate(lines, 1):
            wrapped = (
                number < len(lines) and WRAPPED_START.search(line.rstrip()) and WRAPPED_END.match(lines[number].strip())
            )
            if ISSUE_REFERENCE.search(line) or wrapped:
                found.append(f"{path}:{number}: {line.strip()[:120]}")
    return found


def tracked_files() -> list[str]:
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True)
    return [p for p in listing.stdout.split("\0") if p]


def test_no_tracked_file_names_an_issue_by_number():
    files = tracked_files()
    assert len(files) > 100, "git ls-files listed almost nothing: is this a checkout?"
    found = issue_references(REPO, files)
    assert found == [], "say why in your own words instead of naming an issue:\n" + "\n".join(found)


def test_a_planted_reference_is_found(tmp_path: Path):
    """The control: each form is found in a file, and the look-alikes the tree holds are not."""
    planted = [
        "// memory flat in the seeds (" + "issue " + "29).",
        "Issue #" + "12's names",
        "(issues " + "20 and 33)",
        "(#" + "28)",
        "// fixed since the " + "issue\n// 31 run",
    ]
    for number, text in enumerate(planted):
        (tmp_path / f"f{number}.swift").write_text(f"let x = 1\n{text}\n")
    paths = [f"f{n}.swift" for n in range(len(planted))]
    assert [f.split(":")[:2] for f in issue_references(tmp_path, paths)] == [[p, "2"] for p in paths]
    clean = [
        "FanOutShape(issue: .concurrent, join: .callback)",
        'Issue.record("not an InputFileError")',
        "the `main #2` lane",
        "wolfcw/libfaketime#378",
        'color="#444"',
    ]
    (tmp_path / "clean.swift").write_text("\n".join(clean) + "\n")
    assert issue_references(tmp_path, ["clean.swift"]) == []
