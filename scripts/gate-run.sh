#!/usr/bin/env bash
# The gated part of the nightly run: two results folders that bench-gate checks together.
#
#   scripts/gate-run.sh OUT_DIR        # writes OUT_DIR/gate and OUT_DIR/invariants
#
# OUT_DIR/gate (compared with results/baseline):
#   - throttle: the full virtual-time matrix (deterministic: compared exactly);
#   - clock: the full virtual-time matrix (deterministic) and 11 repetitions of the clock read
#     costs (hardware: read_cost_ratio_to_c);
#   - atomics: 10 repetitions of the uncontended increment on every strategy and reference
#     (hardware: ratio_to_c, ratio_to_atomic).
# OUT_DIR/invariants (thresholds only): every operation and lock at 2 and 8 threads, for the
#   lost-update invariants; no baseline comparison, its values are timing-dependent by nature.
# OUT_DIR/control (thresholds only): the unsynchronized control, 5 repetitions at 8 threads, which
#   must lose updates (proof that the lost-update check can fail).
#
# Expects release binaries in .build/release. THROTTLE_ARGS adds flags to bench-throttle (the gate
# experiment uses it to change a policy's interval); PATTERNBENCH_INJECT_REGRESSION is passed on.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gate-run.sh OUT_DIR}
bin=.build/release
mkdir -p "$out/gate" "$out/invariants" "$out/control"
# shellcheck disable=SC2086
"$bin/bench-throttle" --quiet --output "$out/gate" ${THROTTLE_ARGS:-} >/dev/null
"$bin/bench-clock" --quiet --output "$out/gate" --read-cost-repetitions 11 >/dev/null
"$bin/bench-cache" --quiet --output "$out/gate" --seeds 1 >/dev/null
"$bin/bench-atomics" --quiet --output "$out/gate" --scenario increment --threads 1 --cs-work 0 --gap-work 0 \
  --variant pthread-mutex,nslock,dispatch-queue,mutex,spinlock,pthread-mutex-adaptive,atomic,unsynchronized,c-pthread-mutex,c-atomic \
  --seeds 10 >/dev/null
"$bin/bench-atomics" --quiet --output "$out/invariants" \
  --scenario increment,read-mostly,flag,transition,dictionary-update,array-append-drain \
  --variant pthread-mutex,nslock,dispatch-queue,mutex,spinlock,pthread-mutex-adaptive,atomic \
  --threads 2,8 --cs-work 0 --gap-work 0 --seeds 1 --duration 0.05 --warmup 0.01 --probe-duration 0 >/dev/null
# Keep in step with GateRun.controlArguments in Tests/EndToEndTests/BenchGateTests.swift.
"$bin/bench-atomics" --quiet --output "$out/control" --scenario transition --variant unsynchronized --threads 8 \
  --cs-work 0 --seeds 5 --duration 0.1 --warmup 0.01 --probe-duration 0 >/dev/null
