#!/usr/bin/env python3
"""Fails unless the built reference site's landing page links every guide and each link opens a page.

    scripts/check-reference-site.py SITE     # SITE: the folder scripts/build-reference.sh writes

The guides are derived from the docs/ folder (scripts/docc-guides.py --names), never listed here,
so a new guide that the landing page does not show fails this check. For each one, the landing
page (BenchSuite's, `documentation/benchsuite`) must list it in a topic section, and the site must
hold its page data and its `index.html`, the two files a browser loads when the link is followed.
Standard library only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANDING = "documentation/benchsuite"


def guide_names() -> list[str]:
    """Every guide's article name, from the docs/ folder (the one list, kept by scripts/docc-guides.py)."""
    command = [sys.executable, str(ROOT / "scripts" / "docc-guides.py"), "--names"]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()


def problems(site: Path, names: list[str]) -> list[str]:
    """Everything missing, one line each (empty when the site is complete)."""
    landing = site / "data" / f"{LANDING}.json"
    if not landing.is_file() or not (site / LANDING / "index.html").is_file():
        return [f"no landing page: {landing} or {site / LANDING / 'index.html'} is missing"]
    page = json.loads(landing.read_text())
    linked = {i for section in page.get("topicSections", []) for i in section.get("identifiers", [])}
    found = []
    for name in names:
        identifier = f"doc://BenchSuite/documentation/BenchSuite/{name}"
        if identifier not in linked:
            found.append(f"the landing page does not link the guide {name}")
        for file in (site / "data" / LANDING / f"{name}.json", site / LANDING / name / "index.html"):
            if not file.is_file():
                found.append(f"the guide {name} has no {file.relative_to(site)}")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: scripts/check-reference-site.py SITE", file=sys.stderr)
        return 64
    site = Path(argv[0])
    names = guide_names()
    found = problems(site, names)
    for line in found:
        print(f"check-reference-site: {line}", file=sys.stderr)
    if found:
        return 1
    print(f"check-reference-site: the landing page ({LANDING}) links all {len(names)} guides, each page built")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
