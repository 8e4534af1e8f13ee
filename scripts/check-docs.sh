#!/usr/bin/env bash
# The docs cannot rot: every Swift snippet in the user-facing docs is the text of a file CI
# compiles, and the API reference builds with DocC, warnings as errors, every user-facing public
# symbol documented. Usage: scripts/check-docs.sh [OUT]   (default: .build/docc; the site in OUT/site)
#
#  1. scripts/check-doc-snippets.py must refuse a doc whose snippet no longer matches its file
#     (the control, on rotted copies), then pass on the real docs (README.md,
#     docs/your-own-variant.md, Examples/README.md, docs/architecture.md; the last one's snippets
#     are scripts/workload-template/'s files, which scripts/test-new-workload.sh compiles).
#  2. The files those snippets come from compile: the example package (Examples/: my-bench, the
#     template registering all six roles, and doc-snippets, the doc's own examples) and this
#     package's Sources (the protocol excerpts).
#  3. scripts/build-reference.sh builds the API reference as one static site in OUT/site (every
#     user-facing module and every guide, with --warnings-as-errors; its landing page must link
#     each guide in docs/), and scripts/check-api-docs.py fails on any user-facing public symbol
#     without documentation. The last line printed is the command that serves the site.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -le 1 ] || { echo "usage: scripts/check-docs.sh [ARCHIVE_DIR]" >&2; exit 64; }
out="${1:-.build/docc}"
started=$(date +%s)

# 1. Snippets: the control first (a check that cannot fail proves nothing), then the real docs.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sed 's/name: "oldest-first"/name: "oldest-first-rotted"/' docs/your-own-variant.md > "$scratch/snippet-rotted.md"
sed 's/func withLock<Result>(_ body: () -> Result) -> Result/func withLock<Result>(_ body: () throws -> Result) -> Result/' \
  docs/your-own-variant.md > "$scratch/excerpt-rotted.md"
for rotted in "$scratch/snippet-rotted.md" "$scratch/excerpt-rotted.md"; do
  if cmp -s "$rotted" docs/your-own-variant.md; then echo "check-docs: the control did not change the doc ($rotted)" >&2; exit 1; fi
  if python3 scripts/check-doc-snippets.py "$rotted" 2>/dev/null; then
    echo "check-docs: check-doc-snippets.py accepted a rotted snippet ($rotted): the check is broken" >&2
    exit 1
  fi
done
python3 scripts/check-doc-snippets.py

# 2. The files behind them compile (incremental after Examples/ci.sh and the package build).
swift build --package-path Examples
Examples/.build/debug/doc-snippets cache --list | grep -q "oldest-first .*\[user\]"

# 3. The API reference: one static site of every module and guide (scripts/build-reference.sh:
# warnings are errors, the landing page must link every guide in docs/), then the coverage.
modules=(Simulation Processes Records Timelines Measurement Verdicts Differential TraceImport Throttling Locking Caching Readiness FanOut Lifecycle BenchSuite)
scripts/build-reference.sh "$out" | tee "$scratch/reference.log"
# The coverage check's control: the same coverage with one documented symbol stripped must fail.
for m in "${modules[@]}"; do
  mkdir -p "$scratch/archives/$m.doccarchive"
  cp "$out/coverage/$m.doccarchive/documentation-coverage.json" "$scratch/archives/$m.doccarchive/"
done
python3 - "$scratch/archives/Throttling.doccarchive/documentation-coverage.json" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
hits = [e for e in entries if e.get("referencePath", "").endswith("/ThrottleContext/nextVsync")]
assert hits, "ThrottleContext.nextVsync is not in the Throttling archive"
for e in hits:
    e["hasAbstract"] = False
json.dump(entries, open(sys.argv[1], "w"))
PY
if python3 scripts/check-api-docs.py "$scratch/archives" 2>/dev/null; then
  echo "check-docs: check-api-docs.py accepted an undocumented symbol: the check is broken" >&2
  exit 1
fi
python3 scripts/check-api-docs.py "$out/coverage"
# The site as a reader sees it (where Chromium is installed; CI installs it): served, the landing
# page renders with a guide's title on it; opened from disk, a page says how to serve it.
if command -v chromium >/dev/null 2>&1; then
  python3 -u -m http.server -b 127.0.0.1 -d "$out/site" 0 >"$scratch/http.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
  port=""
  for _ in $(seq 50); do
    port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$scratch/http.log" | head -1)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "check-docs: the HTTP server did not start: $(cat "$scratch/http.log")" >&2; exit 1; }
  render() { timeout 60 chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=8000 --dump-dom "$1" 2>/dev/null; }
  site=$(cd "$out/site" && pwd)
  # The controls: a module's page does not list the guides, and DocC's own page (the BenchSuite
  # archive before build-reference.sh added its line) is blank from disk.
  if render "http://127.0.0.1:$port/documentation/simulation" | grep -q "Input limits" \
    || render "file://$PWD/.build/plugins/Swift-DocC/outputs/intermediates/BenchSuite.doccarchive/index.html" | grep -q "needs an HTTP server"; then
    echo "check-docs: the browser checks' controls passed: the checks are broken" >&2
    exit 1
  fi
  render "http://127.0.0.1:$port/" | grep -q "Input limits" || {
    echo "check-docs: served, the reference's root does not show the landing page with its guides" >&2
    exit 1
  }
  render "file://$site/documentation/benchsuite/index.html" | grep -q "needs an HTTP server" || {
    echo "check-docs: opened from disk, the reference does not say how to serve it" >&2
    exit 1
  }
  kill "$server"
  echo "check-docs: in Chromium, the served reference shows its landing page and guides; from disk, how to serve it"
fi
echo "check-docs: snippets, example package and API reference (${#modules[@]} modules, $out) checked in $(( $(date +%s) - started )) s"
tail -1 "$scratch/reference.log"  # how to serve the reference, last, where it is seen
