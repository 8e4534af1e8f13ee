#!/usr/bin/env bash
# Builds the example package from this checkout and runs it the way a team would in its CI:
# every opened workload in virtual time (--quick, with --check-determinism) and live (--quick),
# then the gate with the example's own thresholds. Usage: Examples/ci.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"

swift build
bin=.build/debug/my-bench

# Virtual time: our variants beside the suite's, every result checked for determinism (again in
# this process and in a child process).
"$bin" throttle --quick --check-determinism --quiet --output "$out/sim" >/dev/null
"$bin" cache --quick --check-determinism --scenario zipf-0.9,scan-resistant --quiet --output "$out/sim" >/dev/null
"$bin" readiness --quick --check-determinism --variant group,signal,frame-aware --quiet --output "$out/sim" >/dev/null
"$bin" group --quick --check-determinism --variant hedged-notify,group-notify,hedged --scenario login,heavy-tail --quiet \
  --output "$out/sim" >/dev/null
"$bin" lifecycle --quick --check-determinism --variant dirty-rename-bg,signal,article --quiet --output "$out/sim" >/dev/null
# Live: the same variants on real threads; ours run in a child process with a watchdog.
"$bin" throttle --quick --mode live --scenario storm-slow --variant every-4th-commit,signal-adaptive --quiet \
  --output "$out/live" >/dev/null
"$bin" cache --quick --mode live --variant clock,lru --quiet --output "$out/live" >/dev/null
"$bin" readiness --quick --mode live --variant group,signal --quiet --output "$out/live" >/dev/null
# bench-atomics is live only: our reader-writer-lock wrapper beside pthread-mutex, the lock-free
# floor and the C reference, a few seconds.
"$bin" atomics --quick --variant rwlock,pthread-mutex,atomic,c-pthread-mutex --scenario increment,read-mostly,transition \
  --threads 1,2 --cs-work 0 --probe-duration 0.05 --quiet --output "$out/live" >/dev/null

# The gate with our own thresholds (no baseline: the example records none).
"$bin" gate "$out/sim" "$out/live" --thresholds thresholds.json --no-baseline >/dev/null

# Every row of our variants says where it comes from.
grep -q ",every-4th-commit,user,sim," "$out/sim/throttle.csv"
grep -q ",every-4th-commit,user,live," "$out/live/throttle.csv"
grep -q ",clock,user,sim," "$out/sim/cache.csv"
grep -q ",clock,user,live," "$out/live/cache.csv"
grep -q ",group,user,sim," "$out/sim/readiness.csv"
grep -q ",group,user,live," "$out/live/readiness.csv"
grep -q ",rwlock,user,live," "$out/live/atomics.csv"
grep -q ",hedged-notify,user,sim," "$out/sim/group.csv"
grep -q ",dirty-rename-bg,user,sim," "$out/sim/lifecycle.csv"
# The results name this package beside PatternBench's commit.
grep -Eq '"name" ?: ?"MyBench"' "$out/sim/throttle.json"
# The doc's own examples (docs/your-own-variant.md) run too: registered, listed as [user].
.build/debug/doc-snippets cache --list | grep -q "oldest-first .*\[user\]"
echo "Examples: my-bench ran in sim and live and passed its gate ($out)"
