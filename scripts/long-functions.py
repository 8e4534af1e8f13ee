#!/usr/bin/env python3
"""List every Swift function, initializer, accessor or closure body longer than a limit.

    scripts/long-functions.py [--limit N] [PATH ...]     default: --limit 120, Sources/

A function that runs over a screen or two hides its steps: the reader has to hold its whole state to
follow any part of it. The rule is "no function in Sources/ over 120 lines", counted from the line
its body opens on to the line it closes on, both included. Every brace block is measured except the
bodies of types (struct, class, enum, actor, protocol, extension) and of control flow inside a
function (if, for, switch, ...), which the function around them already counts; a closure counts on
its own, so a long closure passed to a short call is found too.

Strings (with their interpolations), comments and raw strings are skipped so that a brace inside
them is not counted. Each finding is printed as `path:line: kind name N lines`; any finding exits 1,
a bad argument exits 2 with one line.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 120

TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "protocol", "extension"}
CONTROL_KEYWORDS = {"if", "else", "for", "while", "repeat", "switch", "do", "catch", "guard", "defer", "where"}
STRING_OPENER = re.compile(r'(#*)("""|")')
ACCESSORS = {"get", "set", "willSet", "didSet", "_modify", "_read", "init", "modify", "read"}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    kind: str
    name: str
    lines: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind} {self.name} {self.lines} lines"


def code_only(text: str) -> str:
    """`text` with comments and string contents blanked (newlines kept), interpolations kept as code."""
    out: list[str] = []
    i, n = 0, len(text)
    # A stack of what encloses the current position: ("code", depth-of-parens) or a string's closer.
    stack: list[tuple[str, str | int]] = [("code", 0)]

    def blank(chunk: str) -> str:
        return "".join(c if c == "\n" else " " for c in chunk)

    while i < n:
        kind, info = stack[-1]
        if kind == "code":
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                out.append(blank(text[i:end]))
                i = end
                continue
            if text.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    if text.startswith("/*", j):
                        depth, j = depth + 1, j + 2
                    elif text.startswith("*/", j):
                        depth, j = depth - 1, j + 2
                    else:
                        j += 1
                out.append(blank(text[i:j]))
                i = j
                continue
            m = STRING_OPENER.match(text, i)
            if m:
                hashes, quote = m.group(1), m.group(2)
                stack.append(("string", quote + hashes))
                out.append(blank(m.group(0)))
                i += len(m.group(0))
                continue
            c = text[i]
            if c == "(":
                stack[-1] = ("code", int(info) + 1)
            elif c == ")":
                if int(info) == 0 and len(stack) > 1:
                    stack.pop()  # the end of an interpolation: back in its string
                    out.append(" ")
                    i += 1
                    continue
                stack[-1] = ("code", int(info) - 1)
            out.append(c)
            i += 1
        else:
            closer = str(info)
            hashes = closer.lstrip('"')
            if text.startswith(closer, i):
                stack.pop()
                out.append(blank(closer))
                i += len(closer)
                continue
            if text.startswith("\\" + hashes + "(", i):
                stack.append(("code", 0))
                out.append(" " * (len(hashes) + 2))
                i += len(hashes) + 2
                continue
            if text.startswith("\\" + hashes, i) and i + len(hashes) + 1 < n:
                out.append(blank(text[i : i + len(hashes) + 2]))
                i += len(hashes) + 2
                continue
            out.append("\n" if text[i] == "\n" else " ")
            i += 1
    return "".join(out)


def classify(before: str) -> tuple[str, str] | None:
    """What the block opened after `before` (the code since the previous statement) is: (kind, name),
    or None for a type's body or control flow, which are not measured."""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|[(){}\[\]=:,]", before)
    idents = [w for w in words if re.match(r"[A-Za-z_]", w)]
    for keyword in ("func", "init", "deinit", "subscript"):
        if keyword in idents:
            at = len(idents) - 1 - idents[::-1].index(keyword)
            if keyword == "func" and at + 1 < len(idents):
                return "func", idents[at + 1]
            # `init` as the last word before `{` is an accessor-free initializer body too
            return keyword, keyword
    stripped = before.rstrip()
    last = idents[-1] if idents else ""
    if any(k in idents for k in TYPE_KEYWORDS) and not re.search(r"([=(,:]|\bin)$", stripped):
        # `struct X: P {`, `extension X where ... {` — but not a closure passed in a type's context
        tail = stripped.split("\n")[-1]
        if re.search(r"\b(struct|class|enum|actor|protocol|extension)\b", tail) or stripped.endswith(">"):
            return None
    if last in CONTROL_KEYWORDS or re.search(r"\b(if|guard|while|for|switch|catch|else|repeat|do)\b[^{}]*$", stripped.split("\n")[-1]):
        if not re.search(r"[=(,:]$", stripped):
            return None
    if last in ACCESSORS and stripped.endswith(last):
        return "accessor", last
    computed = re.search(r"\bvar\s+(\w+)[^=]*$", stripped)
    if computed and not re.search(r"[=(,]$", stripped):
        return "accessor", computed.group(1)  # a computed property
    return "closure", "{...}"


def long_blocks(text: str, path: str, limit: int = LIMIT) -> list[Finding]:
    """The measured blocks of one Swift file's `text` over `limit` lines."""
    code = code_only(text)
    findings = []
    opens: list[tuple[int, int, tuple[str, str] | None, bool]] = []  # offset, line, what, inside a function
    line = 1
    statement_start = 0
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            what = classify(code[statement_start:i])
            outer_function = any(o[2] is not None or o[3] for o in opens)
            opens.append((i, line, what, outer_function))
            statement_start = i + 1
        elif c == "}":
            if opens:
                _, start, what, _ = opens.pop()
                length = line - start + 1
                if what is not None and length > limit:
                    findings.append(Finding(path, start, what[0], what[1], length))
            statement_start = i + 1
        elif c == ";":
            statement_start = i + 1
        elif c == "\n":
            pass
    # A statement may span lines: keep statement_start at the last brace/semicolon; `classify` reads
    # the whole span and looks at its last line where it matters.
    return sorted(findings, key=lambda f: (f.path, f.line))


def swift_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.swift")))
        elif p.suffix == ".swift":
            files.append(p)
    return files


def main(argv: list[str]) -> int:
    limit = LIMIT
    args = list(argv)
    if "--limit" in args:
        at = args.index("--limit")
        try:
            limit = int(args[at + 1])
        except (IndexError, ValueError):
            print("long-functions: --limit takes a number of lines", file=sys.stderr)
            return 2
        del args[at : at + 2]
    paths = [Path(a) for a in args] or [ROOT / "Sources"]
    for p in paths:
        if not p.exists():
            print(f"long-functions: {p}: no such file or folder", file=sys.stderr)
            return 2
    findings = []
    for file in swift_files(paths):
        shown = str(file.resolve().relative_to(ROOT)) if file.resolve().is_relative_to(ROOT) else str(file)
        findings.extend(long_blocks(file.read_text(encoding="utf-8"), shown, limit))
    for f in findings:
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
