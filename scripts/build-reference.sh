#!/usr/bin/env bash
# Builds the API reference as one static site: every user-facing module and every guide, with
# BenchSuite's page as the landing page that links the guides. Usage: scripts/build-reference.sh [OUT]
# (default .build/docc). It writes OUT/site (serve it: the last line printed says how), OUT/docc.log
# and OUT/coverage/<Module>.doccarchive/documentation-coverage.json for scripts/check-api-docs.py.
#
# DocC's site cannot open from disk: its pages load their scripts and their JSON from absolute
# paths (`/js/…`, `/data/…`), which a file:// URL resolves against the disk's root, and Chromium
# refuses fetch() from file:// anyway. So every page gets a line that, opened from disk, replaces
# the blank page with the command that serves it; served, the site's root forwards to the landing page.
#
# The guides (docs/*.md, Examples/README.md) are written into BenchSuite's catalog as DocC articles
# (scripts/docc-guides.py, a git-ignored folder), so they are rendered with the reference and
# a link between guides that DocC cannot resolve fails the build like any warning.
set -euo pipefail
[ $# -le 1 ] || { echo "usage: scripts/build-reference.sh [OUT_DIR]" >&2; exit 64; }
# OUT_DIR is read from the caller's folder, before the cd to the checkout.
out="${1:-}"
if [ -n "$out" ]; then
  case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
fi
cd "$(dirname "$0")/.."
out="${out:-.build/docc}"
# site/ and coverage/ are this script's own output, replaced on each run; anything else there (a
# symlink, a file) is the user's and is not removed.
for own in site coverage; do
  if [ -L "$out/$own" ] || { [ -e "$out/$own" ] && [ ! -d "$out/$own" ]; }; then
    echo "build-reference: error: $out/$own is not a folder this script made (a symlink or a file); remove it or choose another OUT_DIR" >&2
    exit 1
  fi
done
site="$out/site"
serve="python3 -m http.server -d $site 8000"
landing="documentation/benchsuite"

modules=(Simulation Processes Records Timelines Measurement Verdicts Differential TraceImport Throttling Locking Caching Readiness FanOut Lifecycle BenchSuite)
targets=()
for m in "${modules[@]}"; do targets+=(--target "$m"); done

python3 scripts/docc-guides.py Sources/BenchSuite/BenchSuite.docc/Guides
mkdir -p "$out"
rm -rf "${out:?}/site" "${out:?}/coverage"
# Each module's own archive (where its coverage is) stays in the plugin's work folder; an old one
# must not pass for this build's.
intermediates=.build/plugins/Swift-DocC/outputs/intermediates
rm -rf "$intermediates"
# One invocation for every module: the symbol graphs are extracted in one build, the archives are
# merged into one site (--enable-experimental-combined-documentation). It stops at the first
# module with a warning, which is an error here.
swift package --allow-writing-to-directory "$out" generate-documentation "${targets[@]}" --output-path "$site" \
  --enable-experimental-combined-documentation --transform-for-static-hosting \
  --warnings-as-errors --experimental-skip-synthesized-symbols --experimental-documentation-coverage \
  --coverage-summary-level brief >"$out/docc.log" 2>&1 || {
  grep -E "^(error|warning)" -A3 "$out/docc.log" >&2 || tail -20 "$out/docc.log" >&2
  echo "build-reference: DocC failed (warnings are errors); the full log: $out/docc.log" >&2
  exit 1
}
# The plugin reports success even when the merge fails: the site must be there.
if [ ! -f "$site/index.html" ] || grep -q "^Error: " "$out/docc.log"; then
  grep "^Error: " "$out/docc.log" >&2 || true
  echo "build-reference: DocC did not write the combined site $site; the full log: $out/docc.log" >&2
  exit 1
fi
for m in "${modules[@]}"; do
  mkdir -p "$out/coverage/$m.doccarchive"
  cp "$intermediates/$m.doccarchive/documentation-coverage.json" "$out/coverage/$m.doccarchive/"
done

python3 - "$site" "$serve" "$landing" <<'PY'
import html, sys
from pathlib import Path
site, serve, landing = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
message = (f"This reference needs an HTTP server: DocC pages load their data with fetch(), which browsers "
           f"refuse from disk. From the repository, run <code>{html.escape(serve)}</code> and open "
           f"<a href='http://localhost:8000/{landing}'>http://localhost:8000/{landing}</a>.")
script = ("<script>/* added by scripts/build-reference.sh */ if (location.protocol === 'file:') "
          "document.addEventListener('DOMContentLoaded', function () { document.body.innerHTML = "
          f"\"<p style='font: 18px sans-serif; margin: 4em; max-width: 40em'>{message}</p>\"; }});"
          f" else if (location.pathname === '/') location.replace('/{landing}');</script>")
pages = list(site.rglob("index.html"))
for page in pages:
    text = page.read_text()
    if "</head>" not in text:
        sys.exit(f"build-reference: {page} has no </head>")
    page.write_text(text.replace("</head>", script + "</head>", 1))
print(f"build-reference: {len(pages)} pages say how to serve them when opened from disk")
PY

# The control first (a check that cannot fail proves nothing): a copy of the landing page's data
# without one guide must be refused.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/data/documentation" "$scratch/$landing"
cp -r "$site/data/$landing" "$scratch/data/documentation/"
cp -r "$site/$landing/"* "$scratch/$landing/"
python3 - "$site/data/$landing.json" "$scratch/data/$landing.json" <<'PY'
import json, sys
page = json.load(open(sys.argv[1]))
for section in page["topicSections"]:
    section["identifiers"] = [i for i in section["identifiers"] if not i.endswith("/limits")]
json.dump(page, open(sys.argv[2], "w"))
PY
if python3 scripts/check-reference-site.py "$scratch" 2>/dev/null; then
  echo "build-reference: check-reference-site.py accepted a landing page without a guide: the check is broken" >&2
  exit 1
fi
python3 scripts/check-reference-site.py "$site"
echo "build-reference: the reference is $site; serve it with \`$serve\` and open http://localhost:8000/$landing (opened from disk it cannot load)"
