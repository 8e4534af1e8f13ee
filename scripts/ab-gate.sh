#!/usr/bin/env bash
# A/B regression gate in one job: the base commit and the current tree, built in release and
# measured interleaved on the same host, then gated by bench-gate's rank test and tolerances.
#
#   scripts/ab-gate.sh --base REF [--out DIR] [--rounds N] [--candidate-env VAR=VALUE]...
#                      [--baseline DIR | --no-baseline] [--no-build]
#
#   --base REF            the commit to compare with (the last green nightly, a branch point, …)
#   --out DIR             results folder (default results/ab/<UTC time>)
#   --rounds N            interleaved rounds (default 8), ordered A B, B A, A B, …; each round runs
#                         the hardware slices with 2 repetitions, so N rounds give 2N a side (≥ 3)
#   --candidate-env V=X   an environment variable for the candidate's runs only (repeatable), e.g.
#                         PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex to prove detection
#   --baseline DIR        the committed baseline the deterministic metrics must equal exactly
#                         (default results/baseline); --no-baseline skips that comparison
#   --no-build            use the binaries already built (both trees)
#   --no-build-candidate  build only the base (the caller has just built this tree)
#
# How: the base is checked out as a git worktree in AB_BASE_DIR (default .build-ab-base/, git-
# ignored) and built with its own scratch path there; both paths stay the same from run to run,
# so the next night rebuilds only what changed. The candidate is this tree, built in .build. The
# candidate runs the deterministic slices once (scripts/gate-run.sh --part deterministic); then
# each round runs the hardware slices of the base, then of the candidate (--part hardware, each
# round with new seeds). bench-gate gates the candidate's hardware metrics against the base's
# (--ab-base) and its deterministic metrics against the committed baseline.
# The base's binaries run with the same arguments; a base too old for them stops with the
# message of the binary that refused, naming the commit (choose a newer base).
#
# AB_BASE_BIN=DIR skips the worktree and the base build and uses the base binaries in DIR (the
# gate experiment uses it to run many rounds against one base build).
#
# Exit status: bench-gate's (0 pass, 1 regression, 2 usage/input error, 3 baseline or base
# missing or incompatible); 2 when a build or a workload fails. DIR/ab-gate.log has the details.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
die() { echo "ab-gate: error: $1" >&2; exit "${2:-2}"; }

base_ref="" out="" rounds=8 baseline=results/baseline no_baseline=0 build=1 build_candidate=1
cand_env=()
while [ $# -gt 0 ]; do
  case "$1" in
    --base) [ $# -ge 2 ] || die "--base needs a commit"; base_ref=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    --rounds) [ $# -ge 2 ] || die "--rounds needs a number"; rounds=$2; shift 2 ;;
    --candidate-env)
      [ $# -ge 2 ] || die "--candidate-env needs VAR=VALUE"
      [[ "$2" =~ ^[A-Za-z_][A-Za-z0-9_]*=.*$ ]] || die "--candidate-env: expected VAR=VALUE, got '$2'"
      cand_env+=("$2"); shift 2 ;;
    --baseline) [ $# -ge 2 ] || die "--baseline needs a folder"; baseline=$2; shift 2 ;;
    --no-baseline) no_baseline=1; shift ;;
    --no-build) build=0; shift ;;
    --no-build-candidate) build_candidate=0; shift ;;
    -h|--help) sed -n 2,34p "$0"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$base_ref" ] || die "--base REF is required (see --help)"
case "$rounds" in ''|*[!0-9]*) die "--rounds must be a whole number ≥ 3, got '$rounds'" ;; esac
[ "$rounds" -ge 3 ] || die "--rounds must be a whole number ≥ 3 (2 repetitions each; the rank test needs 5+ a side), got '$rounds'"
base_sha=$(git rev-parse --verify -q "$base_ref^{commit}") || die "--base: '$base_ref' is not a commit of this repository (fetch it? CI checkouts need fetch-depth: 0)"
out=${out:-results/ab/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
log="$out/ab-gate.log"
: >"$log"
work=${AB_BASE_DIR:-$root/.build-ab-base}
src="$work/src"
echo "ab-gate: base $base_ref = ${base_sha:0:12}, candidate = this tree ($(git rev-parse --short HEAD)$([ -n "$(git status --porcelain --untracked-files=no)" ] && echo ', with uncommitted changes')); results in $out" >&2

# The base worktree: reused (checked out anew) when it exists, so its build is incremental.
base_bin="$work/build/release"
cand_bin="$root/.build/release"
if [ -n "${AB_BASE_BIN:-}" ]; then
  base_bin=$AB_BASE_BIN
  echo "ab-gate: using the base binaries in $base_bin (AB_BASE_BIN; no base build)" >&2
else
  # A worktree whose repository entry is gone (a fresh CI workspace) is made anew.
  if ! { [ -e "$src/.git" ] && git -C "$src" checkout -q --detach --force "$base_sha" >>"$log" 2>&1; }; then
    rm -rf "$src"
    mkdir -p "$work"
    git worktree prune >>"$log" 2>&1
    git worktree add -q --detach --force "$src" "$base_sha" >>"$log" 2>&1 || die "cannot create the base worktree in $src (see $log)"
  fi
  if [ "$build" = 1 ]; then
    start=$(date +%s)
    echo "ab-gate: building the base in release ($work/build)" >&2
    swift build -c release --package-path "$src" --scratch-path "$work/build" >>"$log" 2>&1 || die "release build of the base $base_sha failed (see $log)"
    echo "ab-gate: the base build took $(( $(date +%s) - start )) s" >&2
  fi
fi
if [ "$build" = 1 ] && [ "$build_candidate" = 1 ]; then
  start=$(date +%s)
  echo "ab-gate: building the candidate in release (.build)" >&2
  swift build -c release >>"$log" 2>&1 || die "release build of the candidate failed (see $log)"
  echo "ab-gate: the candidate build took $(( $(date +%s) - start )) s" >&2
fi
for tool in $(scripts/workloads --executables) bench-gate; do [ -x "$cand_bin/$tool" ] || die "$cand_bin/$tool is missing (build without --no-build)"; done
for tool in bench-clock bench-atomics; do [ -x "$base_bin/$tool" ] || die "$base_bin/$tool is missing: the base $base_sha has no $tool, or it was not built"; done

# Each side in a subshell: the candidate's environment never leaks into the base's runs.
run_slice() {  # side bin round folder
  local side=$1 bin=$2 round=$3 folder=$4
  (
    if [ "$side" = candidate ]; then for kv in "${cand_env[@]}"; do export "${kv?}"; done; fi
    BIN=$bin SEEDS=2 SEED=$(( (round - 1) * 2 + 1 )) READ_COST_REPS=2 scripts/gate-run.sh --part hardware "$folder"
  ) >>"$log" 2>&1
}

start=$(date +%s)
(
  for kv in "${cand_env[@]}"; do export "${kv?}"; done
  BIN=$cand_bin scripts/gate-run.sh --part deterministic "$out/candidate"
) >>"$log" 2>&1 || die "the candidate's deterministic slices failed (see $log)"
base_folders=()
cand_folders=()
base_round() {
  run_slice base "$base_bin" "$1" "$out/base/round-$1" \
    || die "the base's hardware slices failed in round $1: $(grep 'gate-run: error' "$log" | tail -n 1 | sed 's/^gate-run: error: //') — base ${base_sha:0:12} may predate these arguments; choose a newer base" 2
}
candidate_round() {
  run_slice candidate "$cand_bin" "$1" "$out/candidate/round-$1" || die "the candidate's hardware slices failed in round $1 (see $log)"
}
for i in $(seq 1 "$rounds"); do
  # A B, then B A: a load that rises or falls during the job weighs on both sides alike.
  if [ $((i % 2)) = 1 ]; then base_round "$i"; candidate_round "$i"; else candidate_round "$i"; base_round "$i"; fi
  base_folders+=(--ab-base "$out/base/round-$i/gate")
  cand_folders+=("$out/candidate/round-$i/gate")
  echo "ab-gate: round $i of $rounds done" >&2
done
echo "ab-gate: measuring took $(( $(date +%s) - start )) s" >&2

baseline_args=(--baseline "$baseline")
[ "$no_baseline" = 1 ] && baseline_args=(--no-baseline)
"$cand_bin/bench-gate" "$out/candidate/gate" "$out/candidate/invariants" "$out/candidate/control" "${cand_folders[@]}" \
  "${base_folders[@]}" "${baseline_args[@]}" --quiet
status=$?
{
  echo "A/B: base \`${base_sha:0:12}\` ($base_ref) against the candidate, $rounds interleaved rounds on $(hostname)."
  [ ${#cand_env[@]} -gt 0 ] && echo "Candidate environment: \`${cand_env[*]}\`."
  echo
  cat "$out/candidate/gate/gate-summary.md" 2>/dev/null || echo "## PatternBench gate: no verdict (bench-gate exit $status)"
} >"$out/summary.md"
cat "$out/summary.md"
exit "$status"
