#!/usr/bin/env bash
# The nightly's test of the instruction-count gate (scripts/check-instructions.sh), run by
# scripts/nightly-perf-gate.sh on the nightly's host (per-commit CI no longer runs it: its release
# build of Benchmarks/ did not fit CI's 15 minutes):
#   1. counts are repeatable: a second run counts what a first run recorded (within 0.1 %);
#   2. the injected 25 % lock slowdown (PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex) fails
#      the check, naming the pthread-mutex kernels, and leaves the others within the tolerance;
#   3. bad thresholds files are one-line errors with exit 2, never a pass;
#   4. then this host against the committed thresholds: gated here when they were recorded on this
#      host's CPU (their `recorded_on` is its identity: a change of ours, not of the CPU, moved a
#      count), printed for the record otherwise (on another CPU a count may move with the CPU).
set -uo pipefail
cd "$(dirname "$0")/.."
check=scripts/check-instructions.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
expect() {  # expect STATUS DESCRIPTION -- command...
  local want=$1 what=$2; shift 3
  "$@" >"$work/out" 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "test-check-instructions: FAIL: $what: exit $got, expected $want" >&2
    cat "$work/out" >&2
    failed=1
  else
    echo "test-check-instructions: ok: $what (exit $got)"
  fi
}

$check --update --thresholds "$work/recorded.json" || { echo "test-check-instructions: FAIL: could not record" >&2; exit 1; }
# Identical to the instruction on the development VM; 0.1 % leaves room for the malloc paths of
# another host's heap layout without hiding anything a change to the code would do.
expect 0 "a second run counts what the first counted (within 0.1 %)" -- \
  env PB_CALLGRIND_PROFILES="$work/clean-profiles" $check --no-build --thresholds "$work/recorded.json" --tolerance 0.1
expect 1 "the injected pthread-mutex slowdown is a regression" -- \
  env PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex $check --no-build --thresholds "$work/recorded.json"
grep -q '| LockingBenchmarks.AtomicValue.increment(pthread-mutex) | .* \*\*REGRESSION\*\* |' "$work/out" \
  || { echo "test-check-instructions: FAIL: the regression does not name AtomicValue.increment(pthread-mutex)" >&2; failed=1; }
if grep '\*\*REGRESSION\*\*' "$work/out" | grep -v 'pthread-mutex)' ; then
  echo "test-check-instructions: FAIL: kernels the injection does not touch were called regressions" >&2; failed=1
fi

# The refusals below read one clean run's profiles (PB_CALLGRIND_PROFILES) instead of counting
# 40 kernels under callgrind again for each (the second run above kept them); the repeatability and
# injection checks above and the committed-thresholds check below count for themselves.
export PB_CALLGRIND_PROFILES=$work/clean-profiles
echo '{"kernels": ' >"$work/broken.json"
expect 2 "a thresholds file that is not JSON" -- $check --no-build --thresholds "$work/broken.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["kernels"].popitem(); json.dump(d, open(sys.argv[2], "w"))' \
  "$work/recorded.json" "$work/short.json"
expect 2 "a kernel without a threshold" -- $check --no-build --thresholds "$work/short.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["kernels"]["Gone.kernel(x)"] = 1.0; json.dump(d, open(sys.argv[2], "w"))' \
  "$work/recorded.json" "$work/stale.json"
expect 2 "a threshold without a kernel" -- $check --no-build --thresholds "$work/stale.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["tolerance_percent"] = "5"; json.dump(d, open(sys.argv[2], "w"))' \
  "$work/recorded.json" "$work/tolerance.json"
expect 2 "a tolerance that is not a number" -- $check --no-build --thresholds "$work/tolerance.json"
expect 2 "an unknown option" -- $check --no-build --bogus
expect 2 "a filter that matches no kernel" -- $check --no-build --filter 'no-such-kernel'
grep -q "^check-instructions: error: no kernel matches the filter$" "$work/out" \
  || { echo "test-check-instructions: FAIL: the empty filter is not one line naming it" >&2; failed=1; }
expect 2 "a --json path that cannot be written" -- $check --no-build --json /proc/instructions.json
expect 2 "a thresholds path that is a folder" -- $check --no-build --thresholds "$work"
expect 2 "recording an injected slowdown" -- \
  env PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex $check --no-build --update --thresholds "$work/injected.json"
unset PB_CALLGRIND_PROFILES

here=$(scripts/cpu-identity | python3 -c 'import json, sys; i = json.load(sys.stdin); print(" ".join(str(i[k]) for k in ("cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping", "cpu_microcode")))')
swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
recorded=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("recorded_on", ""))' "Benchmarks/Thresholds/$swift_version/instructions.json" 2>/dev/null)
if [ -n "$here" ] && [ "$here" = "$recorded" ]; then
  echo "test-check-instructions: this host against the committed thresholds, recorded on this CPU ($here): gated"
  $check --no-build
  status=$?
  echo "test-check-instructions: committed-thresholds check exit $status"
  [ "$status" = 0 ] || { echo "test-check-instructions: FAIL: the committed instruction counts moved on the CPU that recorded them" >&2; failed=1; }
else
  echo "test-check-instructions: for the record (recorded on '$recorded', this host is '$here': not gated on this CPU), this host against the committed thresholds:"
  $check --no-build
  echo "test-check-instructions: committed-thresholds check exit $?"
fi

[ "$failed" = 0 ] && echo "test-check-instructions: all passed"
exit "$failed"
