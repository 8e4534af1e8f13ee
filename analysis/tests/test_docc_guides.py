"""scripts/docc-guides.py: the guides become DocC articles whose links DocC can follow (a guide's link
a `<doc:>` link with DocC's heading fragment, a repository file its path), code blocks untouched,
and a link to a heading that does not exist refused with one line (on a copy of the tree)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = "scripts/docc-guides.py"


def tree(tmp_path: Path, guides: dict[str, str]) -> Path:
    """A tree with the script, docs/ holding `guides` and an Examples/README.md."""
    root = tmp_path / "tree"
    (root / "scripts").mkdir(parents=True)
    shutil.copy2(REPO / SCRIPT, root / SCRIPT)
    (root / "docs").mkdir()
    for name, text in guides.items():
        (root / "docs" / name).write_text(text)
    (root / "Examples").mkdir()
    (root / "Examples" / "README.md").write_text("# The example\n\nSee [the guide](../docs/a.md).\n")
    return root


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(root / SCRIPT), *args], cwd=root, capture_output=True, text=True, timeout=60
    )


def test_links_become_links_docc_follows(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "a.md": "# Guide A\n\n## Live: a real process (killed)\n\nText.\n",
            "b.md": (
                "# Guide B\n\nRead [A's live part](a.md#live-a-real-process-killed), [A](a.md),\n"
                "[the schema](../results/README.md) and ```` ```swift ```` blocks.\n\n"
                "```\n[not a link](a.md) ``kept``\n```\n"
            ),
        },
    )
    result = run(root, str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    b = (tmp_path / "out" / "b.md").read_text()
    assert "[A's live part](<doc:a#Live:-a-real-process-(killed)>)" in b
    assert "[A](<doc:a>)" in b
    assert "the schema (`results/README.md`)" in b
    assert "`\u02cb\u02cb\u02cbswift`" in b  # DocC would read a double-backtick span as a symbol link
    assert "[not a link](a.md) ``kept``" in b  # code blocks stay as written
    assert "(<doc:a>)" in (tmp_path / "out" / "examples.md").read_text()
    assert run(root, "--names").stdout.split() == ["a", "b", "examples"]


def test_a_missing_heading_is_refused_with_one_line(tmp_path: Path) -> None:
    root = tree(tmp_path, {"a.md": "# Guide A\n\nSee [nothing](a.md#no-such-heading).\n"})
    result = run(root, str(tmp_path / "out"))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "docc-guides: docs/a.md: a.md#no-such-heading: a.md has no heading #no-such-heading"
    ]
