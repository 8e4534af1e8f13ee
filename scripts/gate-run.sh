#!/usr/bin/env bash
# The gated part of the nightly run: results folders that bench-gate checks together.
#
#   scripts/gate-run.sh OUT_DIR                        # everything, as before A/B mode existed
#   scripts/gate-run.sh --part deterministic OUT_DIR   # OUT_DIR/gate (virtual time), invariants, control
#   scripts/gate-run.sh --part hardware OUT_DIR        # OUT_DIR/gate: the hardware slices only
#
# The deterministic part (compared with results/baseline exactly):
#   - throttle: the full virtual-time matrix;
#   - clock: the full virtual-time matrix;
#   - cache: its default virtual-time matrix, 1 seed; every other workload of the registry
#     (scripts/workloads: readiness, invalidation, group, lifecycle, …): its default virtual-time matrix;
#   - OUT_DIR/invariants (thresholds only): every operation and lock at 2 and 8 threads, for the
#     lost-update invariants; no baseline comparison, its values are timing-dependent by nature;
#   - OUT_DIR/control (thresholds only): the unsynchronized control, 5 repetitions at 8 threads,
#     which must lose updates (proof that the lost-update check can fail).
# The hardware part (same-run ratios, compared over repetitions):
#   - clock: the read costs (read_cost_ratio_to_c), READ_COST_REPS repetitions (default 11); with
#     --part hardware alone, bench-clock runs only the `none` scenario's virtual-time matrix;
#   - atomics: the uncontended increment on every strategy and reference, SEEDS repetitions
#     (default 10) starting at seed SEED (default 1) (ratio_to_c, cpu_ratio_to_*).
#
# BIN (default .build/release) is the folder of the binaries: scripts/ab-gate.sh runs the same
# slices with a base commit's binaries. THROTTLE_ARGS adds flags to bench-throttle (the gate
# experiment uses it to change a policy's interval); PATTERNBENCH_INJECT_REGRESSION is passed on.
# A binary that rejects its arguments (a base commit older than these slices) stops the script
# with its message and exit 2.
set -euo pipefail
part=all
if [ "${1:-}" = "--part" ]; then part=${2:?usage: scripts/gate-run.sh [--part all|deterministic|hardware] OUT_DIR}; shift 2; fi
case "$part" in all|deterministic|hardware) ;; *) echo "gate-run: error: --part must be all, deterministic or hardware, got '$part'" >&2; exit 2 ;; esac
out=${1:?usage: scripts/gate-run.sh [--part all|deterministic|hardware] OUT_DIR}
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=${BIN:-$root/.build/release}
reps=${READ_COST_REPS:-11}
seeds=${SEEDS:-10}
seed=${SEED:-1}
mkdir -p "$out/gate"

# Runs one binary; on failure prints which one and its last error line, and exits 2.
run() {
  local tool=$1; shift
  local err
  err=$(mktemp)
  if ! "$bin/$tool" "$@" >/dev/null 2>"$err"; then
    echo "gate-run: error: $bin/$tool failed: $(grep -v '^\s*$' "$err" | tail -n 1)" >&2
    echo "gate-run: command: $tool $*" >&2
    rm -f "$err"; exit 2
  fi
  rm -f "$err"
}

if [ "$part" != hardware ]; then
  mkdir -p "$out/invariants" "$out/control"
  # shellcheck disable=SC2086
  run bench-throttle --quiet --output "$out/gate" ${THROTTLE_ARGS:-}
  run bench-cache --quiet --output "$out/gate" --seeds 1
  # Every other workload of the registry: its default virtual-time matrix (a new workload's slice
  # needs no edit here; one that needs flags gets a line above and a name in the case).
  for name in $("$root/scripts/workloads"); do
    case "$name" in
      throttle | cache | clock | atomics) ;;
      *) run "bench-$name" --quiet --output "$out/gate" ;;
    esac
  done
fi
case "$part" in
  all) run bench-clock --quiet --output "$out/gate" --read-cost-repetitions "$reps" ;;
  deterministic) run bench-clock --quiet --output "$out/gate" --no-read-cost ;;
  hardware) run bench-clock --quiet --output "$out/gate" --scenario none --read-cost-repetitions "$reps" ;;
esac
if [ "$part" != deterministic ]; then
  run bench-atomics --quiet --output "$out/gate" --scenario increment --threads 1 --cs-work 0 --gap-work 0 \
    --variant pthread-mutex,nslock,dispatch-queue,mutex,spinlock,pthread-mutex-adaptive,signal-global-lock,atomic,unsynchronized,c-pthread-mutex,c-atomic \
    --seeds "$seeds" --seed "$seed"
fi
if [ "$part" != hardware ]; then
  run bench-atomics --quiet --output "$out/invariants" \
    --scenario increment,read-mostly,flag,transition,dictionary-update,array-append-drain,different-atomics \
    --variant pthread-mutex,nslock,dispatch-queue,mutex,spinlock,pthread-mutex-adaptive,signal-global-lock,atomic \
    --threads 2,8 --cs-work 0 --gap-work 0 --seeds 1 --duration 0.05 --warmup 0.01 --probe-duration 0
  # Keep in step with GateRun.controlArguments in Tests/EndToEndTests/BenchGateTests.swift.
  run bench-atomics --quiet --output "$out/control" --scenario transition --variant unsynchronized --threads 8 \
    --cs-work 0 --seeds 5 --duration 0.1 --warmup 0.01 --probe-duration 0
fi
