#!/usr/bin/env bash
# The nightly performance gate.
#
#   scripts/nightly-perf-gate.sh [--base REF] [--rounds N] [--no-full] [OUT_DIR]
#   scripts/nightly-perf-gate.sh --update-baseline  # deliberately re-record results/baseline
#
# With --base REF (the CI workflow passes the last green nightly's commit): A/B mode.
#   scripts/ab-gate.sh builds REF and this tree in release and runs their hardware slices
#   interleaved on this host; bench-gate gates the hardware metrics against REF's and the
#   deterministic metrics against results/baseline, exactly. A runner whose CPU differs from the
#   baseline's cannot raise a false alarm: both sides ran on it.
# Without --base: the gated slices (scripts/gate-run.sh) against results/baseline; the hardware
#   metrics are compared only when this host's CPU fingerprint matches the baseline's, otherwise
#   the summary says they are not comparable (deterministic metrics are compared either way).
# Then:
#   - every workload's full matrix into OUT_DIR/full (archived, not gated), unless --no-full;
#   - the run report (scripts/pb-analysis report) when the analysis tools are installed;
#   - the micro-benchmark check (scripts/check-microbenchmarks.sh: allocation counts exactly,
#     wall-clock p90 only where the thresholds' CPU fingerprint matches this host);
#   - the instruction counts of the same micro-benchmarks under callgrind
#     (scripts/check-instructions.sh: host-independent, ±5 %; skipped with a note without valgrind);
#   - OUT_DIR/summary.md (for the CI job page), and the exit status:
#     0 all passed, 1 a regression (gate, micro-benchmarks or instruction counts), 2 a usage/tool error,
#     3 baseline (or A/B base) missing or incompatible.
# Everything stays in OUT_DIR for the CI job to archive, whatever the outcome. OUT_DIR/timings.txt
# has the wall time of each step.
set -uo pipefail
cd "$(dirname "$0")/.."

update=0 out="" base="" rounds=8 full=1
while [ $# -gt 0 ]; do
  case "$1" in
    --update-baseline) update=1 ;;
    --base) [ $# -ge 2 ] || { echo "nightly-perf-gate: error: --base needs a commit" >&2; exit 2; }; base=$2; shift ;;
    --rounds) [ $# -ge 2 ] || { echo "nightly-perf-gate: error: --rounds needs a number" >&2; exit 2; }; rounds=$2; shift ;;
    --no-full) full=0 ;;
    -h|--help) sed -n 2,26p "$0"; exit 0 ;;
    -*) echo "nightly-perf-gate: error: unknown option $1" >&2; exit 2 ;;
    *) out=$1 ;;
  esac
  shift
done
# Checked before the release build, not minutes later by ab-gate.sh.
case "$rounds" in ''|*[!0-9]*) echo "nightly-perf-gate: error: --rounds must be a whole number ≥ 3, got '$rounds'" >&2; exit 2 ;; esac
[ "$rounds" -ge 3 ] || { echo "nightly-perf-gate: error: --rounds must be a whole number ≥ 3, got '$rounds'" >&2; exit 2; }
if [ "$update" = 1 ] && [ -n "$base" ]; then echo "nightly-perf-gate: error: --update-baseline records the baseline; it takes no --base" >&2; exit 2; fi
out=${out:-results/nightly/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out" || { echo "nightly-perf-gate: error: cannot create $out" >&2; exit 2; }
log="$out/nightly.log"
timings="$out/timings.txt"
: >"$timings"
echo "nightly-perf-gate: results in $out" >&2
t0=$(date +%s); last=$t0
step() { local now; now=$(date +%s); echo "$1: $((now - last)) s" >>"$timings"; last=$now; }

swift build -c release >>"$log" 2>&1 || { echo "nightly-perf-gate: error: release build failed (see $log)" >&2; exit 2; }
step "release build (candidate)"

if [ -n "$base" ]; then
  scripts/ab-gate.sh --base "$base" --out "$out" --rounds "$rounds" --no-build-candidate >>"$log" 2>&1
  gate=$?
  gate_summary="$out/candidate/gate/gate-summary.md"
  step "A/B gate (base build, deterministic slices, $rounds interleaved rounds, bench-gate)"
else
  scripts/gate-run.sh "$out" >>"$log" 2>&1 || { echo "nightly-perf-gate: error: a workload failed (see $log)" >&2; exit 2; }
  if [ "$update" = 1 ]; then
    .build/release/bench-gate "$out/gate" "$out/invariants" "$out/control" --update-baseline --no-baseline
    exit $?
  fi
  .build/release/bench-gate "$out/gate" "$out/invariants" "$out/control" --quiet
  gate=$?
  gate_summary="$out/gate/gate-summary.md"
  step "gated slices and bench-gate"
fi

full_dir="$out/full"
if [ "$full" = 1 ]; then
  mkdir -p "$full_dir"
  # Every registered workload's default matrix (scripts/workloads: no list kept here), atomics'
  # full one, and the live runs of throttle and clock.
  for bench in $(scripts/workloads --executables); do
    extra=()
    [ "$bench" = bench-atomics ] && extra=(--full)
    .build/release/"$bench" --quiet --output "$full_dir" "${extra[@]}" >>"$log" 2>&1 \
      || echo "nightly-perf-gate: warning: the full-matrix run of $bench failed (see $log)" >&2
  done
  {
    .build/release/bench-throttle --quiet --output "$full_dir/live" --mode live
    if command -v faketime >/dev/null; then .build/release/bench-clock --quiet --output "$full_dir/live" --mode live --scenario leap-second,step-plus-1h; fi
  } >>"$log" 2>&1 || echo "nightly-perf-gate: warning: a live full-matrix run failed (see $log)" >&2
  step "full matrices (not gated)"
fi

# The run report (charts and an HTML page) for the archive, when the analysis tools are installed
# (in .venv, which scripts/pb-analysis uses by itself, or in the system python3).
analysis_python=python3
[ -x .venv/bin/python ] && analysis_python=.venv/bin/python
if "$analysis_python" -c "import pandas, matplotlib" 2>/dev/null; then
  scripts/pb-analysis report "$(dirname "$gate_summary")" >>"$log" 2>&1 || echo "nightly-perf-gate: warning: the report failed (see $log)" >&2
  step "report"
fi

micro=0
if [ -x scripts/check-microbenchmarks.sh ]; then
  scripts/check-microbenchmarks.sh >"$out/microbenchmarks.txt" 2>&1
  micro=$?
  step "micro-benchmarks"
fi
# Instruction counts under callgrind: the micro-benchmarks' time gate that holds on any runner.
instructions=0
if command -v valgrind >/dev/null; then
  scripts/check-instructions.sh --json "$out/instructions.json" >"$out/instructions.txt" 2>&1
  instructions=$?
  # The checker's own tests (repeatable, an injected slowdown caught, bad files refused): here
  # rather than in per-commit CI, whose 15 minutes its release build no longer fits. A failure
  # is a tool failure (2).
  if ! scripts/test-check-instructions.sh >"$out/instructions-selftest.txt" 2>&1 && [ "$instructions" = 0 ]; then
    instructions=2
  fi
  step "instruction counts"
else
  instructions=4  # not run: reported, not failed
fi
echo "total: $(( $(date +%s) - t0 )) s" >>"$timings"

{
  [ -n "$base" ] && echo "A/B against \`$base\` ($(git rev-parse --short "$base" 2>/dev/null || echo '?')), $rounds interleaved rounds on this host." && echo
  cat "$gate_summary" 2>/dev/null || echo "## PatternBench gate: no verdict (exit $gate; see nightly.log)"
  echo
  case $micro in
    0) echo "### Micro-benchmarks: within thresholds" ;;
    1) echo "### Micro-benchmarks: REGRESSION (see microbenchmarks.txt)" ;;
    *) echo "### Micro-benchmarks: could not run (exit $micro, see microbenchmarks.txt)" ;;
  esac
  grep -m1 '^check-microbenchmarks: wall-clock' "$out/microbenchmarks.txt" 2>/dev/null | sed 's/^check-microbenchmarks: /- /'
  echo
  case $instructions in
    0) echo "### Instruction counts: $(grep -m1 'kernels within' "$out/instructions.txt" | sed 's/^check-instructions: //')" ;;
    1) echo "### Instruction counts: REGRESSION (see instructions.txt)"; echo; grep '\*\*REGRESSION\*\*' "$out/instructions.txt" ;;
    4) echo "### Instruction counts: not run (valgrind is not installed)" ;;
    *) echo "### Instruction counts: could not run (exit $instructions, see instructions.txt)" ;;
  esac
  echo
  [ "$full" = 1 ] && echo "Full matrices (not gated): \`$full_dir\`."
  echo "Step times: $(paste -sd ';' "$timings")."
} >"$out/summary.md"

# --- history (block owned by the analysis package; docs/analysis.md, "History") ---------------
# Every run of this night goes into the history database (PB_HISTORY_DB, default the user's data
# directory, $XDG_DATA_HOME/patternbench/history.sqlite as pb-analysis has it, never the checkout;
# or a postgresql:// URL), and the change points Apache Otava finds across
# the nights are appended to the summary: a drift made of steps each under the gate's tolerance
# shows here. Without the analysis tools this block only warns; it never changes the exit code.
history_db=${PB_HISTORY_DB:-${XDG_DATA_HOME:-$HOME/.local/share}/patternbench/history.sqlite}
history_t0=$(date +%s)
history_dirs=()
results_root=$(dirname "$(dirname "$gate_summary")")  # OUT_DIR, or OUT_DIR/candidate in A/B mode
for d in "$results_root/gate" "$results_root/invariants" "$results_root/control" "$full_dir" "$full_dir/live"; do
  if compgen -G "$d/*.csv" >/dev/null; then history_dirs+=("$d"); fi
done
if [ ${#history_dirs[@]} -gt 0 ] && scripts/pb-analysis history ingest "${history_dirs[@]}" --db "$history_db" >>"$log" 2>&1; then
  {
    echo
    echo "### History: change points across nightly runs (\`$history_db\`)"
    echo
    # Each change point's row carries its series' trend as a sparkline (the chart in text: a job
    # summary shows no image from the runner); the charts themselves are in history/.
    scripts/pb-analysis history changes --db "$history_db" 2>>"$log" || echo "history changes failed (see nightly.log)"
    if scripts/pb-analysis history plot --db "$history_db" --output "$out/history" >>"$log" 2>&1; then
      echo
      echo "Trend charts: \`history/\` in this night's results ($(ls "$out/history" 2>/dev/null | grep -c '\.png$') PNG)."
    fi
  } >>"$out/summary.md"
else
  echo "nightly-perf-gate: warning: the history was not updated (see $log)" >&2
fi
# The whole night end to end, the history included (the budget is 15 minutes on 2 cores).
history_s=$(( $(date +%s) - history_t0 ))
echo "history: $history_s s" >>"$timings"
{
  echo
  echo "End to end: $(( $(date +%s) - t0 )) s (history and trend charts: $history_s s; report: $(grep -m1 '^report:' "$timings" | sed 's/^report: //' || echo 'not built'))."
} >>"$out/summary.md"
# --- end of history block ------------------------------------------------------------------------
cat "$out/summary.md"

if [ "$gate" -ge 2 ]; then exit "$gate"; fi
if [ "$micro" -ge 2 ] || { [ "$instructions" -ge 2 ] && [ "$instructions" != 4 ]; }; then exit 2; fi
if [ "$gate" = 1 ] || [ "$micro" = 1 ] || [ "$instructions" = 1 ]; then exit 1; fi
exit 0
