#!/usr/bin/env bash
# The nightly performance gate.
#
#   scripts/nightly-perf-gate.sh [OUT_DIR]          # default OUT_DIR: results/nightly/<UTC time>
#   scripts/nightly-perf-gate.sh --update-baseline  # deliberately re-record results/baseline
#
# 1. builds in release;
# 2. runs the gated slices (scripts/gate-run.sh) and bench-gate against results/baseline;
# 3. runs every workload's full matrix into OUT_DIR/full (reported and archived, not gated:
#    their hardware cells have too few repetitions to test, and the gated slices cover them);
# 4. renders the run report (scripts/pb-analysis report) when the analysis tools are installed,
#    and runs the micro-benchmark threshold check (scripts/check-microbenchmarks.sh);
# 5. writes OUT_DIR/summary.md (for the CI job page) and exits:
#    0 all passed, 1 a regression (gate or micro-benchmarks), 2 a usage/tool error,
#    3 baseline missing or incompatible.
# Everything stays in OUT_DIR for the CI job to archive, whatever the outcome.
set -uo pipefail
cd "$(dirname "$0")/.."

update=0
out=""
for arg in "$@"; do
  case "$arg" in
    --update-baseline) update=1 ;;
    -h|--help) sed -n 2,17p "$0"; exit 0 ;;
    -*) echo "nightly-perf-gate: error: unknown option $arg" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done
out=${out:-results/nightly/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out" || { echo "nightly-perf-gate: error: cannot create $out" >&2; exit 2; }
log="$out/nightly.log"
echo "nightly-perf-gate: results in $out" >&2

swift build -c release >>"$log" 2>&1 || { echo "nightly-perf-gate: error: release build failed (see $log)" >&2; exit 2; }

scripts/gate-run.sh "$out" >>"$log" 2>&1 || { echo "nightly-perf-gate: error: a workload failed (see $log)" >&2; exit 2; }

if [ "$update" = 1 ]; then
  .build/release/bench-gate "$out/gate" "$out/invariants" "$out/control" --update-baseline --no-baseline
  exit $?
fi

.build/release/bench-gate "$out/gate" "$out/invariants" "$out/control" --quiet
gate=$?

full="$out/full"
mkdir -p "$full"
{
  .build/release/bench-throttle --quiet --output "$full"
  .build/release/bench-throttle --quiet --output "$full/live" --mode live
  .build/release/bench-atomics --quiet --output "$full" --full
  .build/release/bench-clock --quiet --output "$full"
  if command -v faketime >/dev/null; then .build/release/bench-clock --quiet --output "$full/live" --mode live --scenario leap-second,step-plus-1h; fi
} >>"$log" 2>&1 || echo "nightly-perf-gate: warning: a full-matrix run failed (see $log)" >&2

# The run report (charts and an HTML page) for the archive, when the analysis tools are installed.
if python3 -c "import pandas, matplotlib" 2>/dev/null; then
  scripts/pb-analysis report "$out/gate" >>"$log" 2>&1 || echo "nightly-perf-gate: warning: the report failed (see $log)" >&2
fi

micro=0
if [ -x scripts/check-microbenchmarks.sh ]; then
  scripts/check-microbenchmarks.sh >"$out/microbenchmarks.txt" 2>&1
  micro=$?
fi

{
  cat "$out/gate/gate-summary.md" 2>/dev/null || echo "## PatternBench gate: no verdict (exit $gate)"
  echo
  case $micro in
    0) echo "### Micro-benchmarks: within thresholds" ;;
    1) echo "### Micro-benchmarks: REGRESSION (see microbenchmarks.txt)" ;;
    *) echo "### Micro-benchmarks: could not run (exit $micro, see microbenchmarks.txt)" ;;
  esac
  echo
  echo "Full matrices (not gated): \`$full\`."
} >"$out/summary.md"

# --- history (block owned by the analysis package; docs/analysis.md, "History") ---------------
# Every run of this night goes into the history database (PB_HISTORY_DB, default
# results/history.sqlite, or a postgresql:// URL), and the change points Apache Otava finds across
# the nights are appended to the summary: a drift made of steps each under the gate's tolerance
# shows here. Without the analysis tools this block only warns; it never changes the exit code.
history_db=${PB_HISTORY_DB:-results/history.sqlite}
history_dirs=()
for d in "$out/gate" "$out/invariants" "$out/control" "$full" "$full/live"; do
  if compgen -G "$d/*.csv" >/dev/null; then history_dirs+=("$d"); fi
done
if [ ${#history_dirs[@]} -gt 0 ] && scripts/pb-analysis history ingest "${history_dirs[@]}" --db "$history_db" >>"$log" 2>&1; then
  {
    echo
    echo "### History: change points across nightly runs (\`$history_db\`)"
    echo
    scripts/pb-analysis history changes --db "$history_db" 2>>"$log" || echo "history changes failed (see nightly.log)"
  } >>"$out/summary.md"
else
  echo "nightly-perf-gate: warning: the history was not updated (see $log)" >&2
fi
# --- end of history block ------------------------------------------------------------------------
cat "$out/summary.md"

if [ "$gate" -ge 2 ]; then exit "$gate"; fi
if [ "$micro" -ge 2 ]; then exit 2; fi
if [ "$gate" = 1 ] || [ "$micro" = 1 ]; then exit 1; fi
exit 0
