#!/usr/bin/env python3
"""Every Swift snippet in the user-facing docs is real code that CI compiles.

A ```swift block in a checked document must follow a marker comment naming the file it comes from:

    <!-- snippet: Examples/Sources/my-bench/main.swift#register-cache -->
        the block is that region of the file, exactly (both dedented): the lines between
        `// snippet: register-cache` and `// snippet: end` (no `#region`: the whole file);
    <!-- excerpt: Sources/Caching/Model/CountBoundedCache.swift -->
        every code line of the block, in order, is a line of the file (comments, blank lines and
        blank-insensitive whitespace ignored); a line with `…` stands for what the doc leaves out.

The files are compiled elsewhere: Examples/ (its my-bench and doc-snippets executables) by
Examples/ci.sh, Sources/ by the package build. This script checks that the documents still say
what those files say, so a snippet cannot rot without failing CI. A block without a marker, a
missing file or region, or a difference fails with one line per problem (exit 1).

Usage: scripts/check-doc-snippets.py [--root DIR] [--fix] [DOC.md ...]
  --fix   rewrite every `snippet:` block from its file (after editing the file); excerpts are not touched
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

DOCUMENTS = ["README.md", "docs/your-own-variant.md", "Examples/README.md", "docs/architecture.md"]
MARKER = re.compile(r"<!--\s*(snippet|excerpt):\s*(\S+?)\s*-->")
REGION = re.compile(r"^\s*// snippet: (\S+)\s*$")


def swift_blocks(text: str) -> list[tuple[int, str | None, str]]:
    """(line number, marker line or None, code) of every ```swift block."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            start = i
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            marker = None
            k = start - 1
            while k >= 0 and lines[k].strip() == "":
                k -= 1
            if k >= 0 and MARKER.search(lines[k]):
                marker = lines[k]
            out.append((start + 1, marker, "\n".join(lines[start + 1:j])))
            i = j + 1
        else:
            i += 1
    return out


def dedent(text: str) -> str:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    indents = [len(line) - len(line.lstrip()) for line in lines if line]
    cut = min(indents) if indents else 0
    return "\n".join(line[cut:] for line in lines)


def region(source: str, name: str | None) -> str | None:
    """The lines between `// snippet: NAME` and `// snippet: end` (nested markers dropped)."""
    lines = source.split("\n")
    if name is None:
        return dedent("\n".join(line for line in lines if not REGION.match(line)))
    inside = False
    body: list[str] = []
    for line in lines:
        m = REGION.match(line)
        if m and m.group(1) == name:
            inside = True
            continue
        if inside and m and m.group(1) == "end":
            return dedent("\n".join(body))
        if inside and not m:
            body.append(line)
    return None


def normalized(line: str) -> str:
    line = re.sub(r"\s+//.*$", "", line) if not line.lstrip().startswith("//") else ""
    line = " ".join(line.split())
    return line.removesuffix(" {")  # a declaration matches with or without its body


def code_lines(text: str) -> list[str]:
    out = []
    for line in text.split("\n"):
        n = normalized(line)
        if n and n not in ("}", "{", ")", "])", "]"):
            out.append(n)
    return out


def check_excerpt(block: str, source: str) -> str | None:
    """None when every code line of `block` is a line of `source`, in order; else the first that is not."""
    wanted = [line for line in code_lines(block) if "…" not in line]
    have = code_lines(source)
    position = 0
    for line in wanted:
        try:
            position = have.index(line, position) + 1
        except ValueError:
            return line
    return None


def check(root: Path, documents: list[str]) -> list[str]:
    problems = []
    checked = 0
    for doc in documents:
        text = (root / doc).read_text(encoding="utf-8")
        for line_number, marker, code in swift_blocks(text):
            where = f"{doc}:{line_number}"
            if marker is None:
                problems.append(f"{where}: a ```swift block without a <!-- snippet: … --> or <!-- excerpt: … --> marker")
                continue
            kind, target = MARKER.search(marker).groups()
            path, _, name = target.partition("#")
            file = root / path
            if not file.is_file():
                problems.append(f"{where}: {path}: no such file")
                continue
            source = file.read_text(encoding="utf-8")
            checked += 1
            if kind == "snippet":
                expected = region(source, name or None)
                if expected is None:
                    problems.append(f"{where}: {path} has no region '// snippet: {name}' … '// snippet: end'")
                elif dedent(code) != expected:
                    a, b = dedent(code).split("\n"), expected.split("\n")
                    first = next((i for i in range(max(len(a), len(b))) if (a + [""])[min(i, len(a))] != (b + [""])[min(i, len(b))]), 0)
                    got = a[first] if first < len(a) else "(end)"
                    want = b[first] if first < len(b) else "(end)"
                    problems.append(f"{where}: differs from {target} at its line {first + 1}: doc '{got.strip()}', file '{want.strip()}'")
            else:
                missing = check_excerpt(code, source)
                if missing is not None:
                    problems.append(f"{where}: not in {path} (in this order): '{missing}'")
    if checked == 0 and not problems:
        problems.append("no ```swift block found: nothing was checked")
    return problems


def fix(root: Path, documents: list[str]) -> None:
    """Rewrites every `snippet:` block of `documents` with its file's region."""
    for doc in documents:
        lines = (root / doc).read_text(encoding="utf-8").split("\n")
        out: list[str] = []
        i = 0
        while i < len(lines):
            out.append(lines[i])
            m = MARKER.search(lines[i])
            if m and m.group(1) == "snippet" and i + 1 < len(lines) and lines[i + 1].strip() == "```swift":
                path, _, name = m.group(2).partition("#")
                body = region((root / path).read_text(encoding="utf-8"), name or None)
                j = i + 2
                while j < len(lines) and lines[j].strip() != "```":
                    j += 1
                if body is not None:
                    out += ["```swift"] + body.split("\n") + ["```"]
                    i = j + 1
                    continue
            i += 1
        (root / doc).write_text("\n".join(out), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--fix", action="store_true", help="rewrite snippet blocks from their files")
    parser.add_argument("documents", nargs="*", default=DOCUMENTS)
    args = parser.parse_args()
    root = Path(args.root)
    if args.fix:
        fix(root, args.documents)
    problems = check(root, args.documents)
    for p in problems:
        print(f"check-doc-snippets: {p}", file=sys.stderr)
    if problems:
        return 1
    total = sum(len(swift_blocks((root / d).read_text(encoding="utf-8"))) for d in args.documents)
    print(f"check-doc-snippets: {total} Swift snippets in {len(args.documents)} documents match their compiled files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
