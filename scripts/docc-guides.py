#!/usr/bin/env python3
"""Writes every guide (docs/*.md and Examples/README.md) as a DocC article, so that the API
reference's landing page can link the guides and a served reference opens them rendered.

    scripts/docc-guides.py OUT_DIR        # OUT_DIR: the git-ignored Guides/ folder of BenchSuite's catalog
    scripts/docc-guides.py --names        # print each guide's article name, one a line

The guides stay written once, in docs/: this copies them at build time, changing only what DocC
reads differently from GitHub. A link to another guide becomes a `<doc:>` link (DocC resolves it
or fails the build, so a broken one cannot ship); a link to a heading uses DocC's fragment; a
link to a repository file that is not a guide becomes its path in code (the served site holds no
repository); an image is copied beside the article. The list of guides is the docs/ folder
itself, so a new guide is in the reference without anyone adding it to a list.
Standard library only (it runs before any virtual environment exists).
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# [text](target): the text may wrap onto the next line, the target may not.
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
# A code span fenced by two or more backticks on one line (outside code blocks: those are masked).
MULTI_TICK = re.compile(r"(?<!`)(`{2,})(?!`) ?(.+?) ?(?<!`)\1(?!`)")
HEADING = re.compile(r"^#{2,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)


def guides() -> dict[Path, str]:
    """Every guide's file and its article name: docs/NAME.md is NAME, Examples/README.md is `examples`."""
    found = {path: path.stem for path in sorted((ROOT / "docs").glob("*.md"))}
    found[ROOT / "Examples" / "README.md"] = "examples"
    return found


def github_fragment(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[|\]\([^)]*\)", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def docc_fragment(heading: str) -> str:
    """The fragment DocC gives the same heading (whitespace runs to one hyphen, link punctuation dropped)."""
    text = re.sub(r"[`*_]|\]\([^)]*\)|\[", "", heading).strip()
    return re.sub(r"[\s]+", "-", text).translate(str.maketrans("", "", "'\"`#%?<>[]{}|\\^"))


def fragments(text: str) -> dict[str, str]:
    """GitHub anchor → DocC fragment for every heading of a guide (outside code blocks; the title's is empty)."""
    masked = mask_code(text)
    found = {github_fragment(h): docc_fragment(h) for h in HEADING.findall(masked)}
    title = re.match(r"#\s+(.*)", masked)
    if title:  # GitHub's anchor of the title: the page itself in DocC
        found.setdefault(github_fragment(title.group(1)), "")
    return found


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """The text with `change` applied to everything outside fenced code blocks."""
    out, inside = [], False
    for piece in re.split(r"(^(?:```|~~~)[^\n]*$)", text, flags=re.MULTILINE):
        if re.match(r"^(```|~~~)", piece):
            inside = not inside
            out.append(piece)
        else:
            out.append(piece if inside else change(piece))
    return "".join(out)


def mask_code(text: str) -> str:
    """The text with fenced code blocks blanked (same length), so links inside them stay untouched."""
    blank = re.sub(r"[^\n]", " ", text)
    kept = outside_code(text, lambda prose: "\0" * len(prose))
    return "".join(t if k == "\0" else b for t, k, b in zip(text, kept, blank))


def convert(source: Path, names: dict[Path, str], anchors: dict[Path, dict[str, str]], out: Path) -> str:
    """One guide as a DocC article."""
    text = source.read_text()
    masked = mask_code(text)
    pieces, last = [], 0
    for match in LINK.finditer(masked):
        image, label, target = match.groups()
        label = text[match.start(2) : match.end(2)]
        pieces.append(text[last : match.start()])
        last = match.end()
        if re.match(r"^[a-z]+:", target):
            pieces.append(match.group(0))
            continue
        path_part, _, fragment = target.partition("#")
        linked = (source.parent / path_part).resolve() if path_part else source
        if image:
            if not linked.is_file():
                raise SystemExit(f"docc-guides: {source.relative_to(ROOT)}: image {target} does not exist")
            shutil.copy(linked, out / linked.name)
            pieces.append(f"![{label}]({linked.stem})")
        elif linked in names:
            docc = anchors[linked].get(fragment) if fragment else None
            if fragment and docc is None:
                raise SystemExit(
                    f"docc-guides: {source.relative_to(ROOT)}: {target}: {path_part or source.name} has no heading #{fragment}"
                )
            reference = names[linked] + (f"#{docc}" if docc else "")
            pieces.append(f"[{label}](<doc:{reference}>)")
        else:
            where = linked.relative_to(ROOT) if linked.is_relative_to(ROOT) else target
            plain = label.strip("`")
            pieces.append(f"`{where}`" if plain == str(where) else f"{label} (`{where}`)")
    pieces.append(text[last:])
    return outside_code("".join(pieces), lambda prose: MULTI_TICK.sub(single_tick, prose))


def single_tick(match: re.Match[str]) -> str:
    """A code span fenced by two or more backticks, as one DocC reads as code: DocC takes a
    double-backtick span for a symbol link, so the span becomes single-backticked and any backtick
    inside it a look-alike (U+02CB)."""
    return "`" + match.group(2).replace("`", "\u02cb") + "`"


def main(argv: list[str]) -> int:
    if argv == ["--names"]:
        print("\n".join(guides().values()))
        return 0
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: scripts/docc-guides.py OUT_DIR | --names", file=sys.stderr)
        return 64
    out = Path(argv[0])
    names = guides()
    anchors = {path: fragments(path.read_text()) for path in names}
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for path, name in names.items():
        (out / f"{name}.md").write_text(convert(path, names, anchors, out))
    print(f"docc-guides: {len(names)} guides written as DocC articles to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
