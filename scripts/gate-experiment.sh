#!/usr/bin/env bash
# Measures the gate's false-alarm and detection rates (the figures in docs/regression-gate.md).
#
#   scripts/gate-experiment.sh [RUNS]    # default 20
#
# For each run: the gated slices (scripts/gate-run.sh) on unchanged code, then again with known
# regressions injected — PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex (25 % more lock
# operations in the pthread-mutex strategy) and THROTTLE_ARGS="--fixed-interval-ms 110" (a policy
# whose interval changed) — each checked by bench-gate against results/baseline. Prints one line
# per run and the totals. Needs release binaries (swift build -c release) and a baseline recorded
# on this machine kind (scripts/nightly-perf-gate.sh --update-baseline).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
case "$runs" in
  ''|*[!0-9]*|0) echo "gate-experiment: error: RUNS must be a whole number ≥ 1, got '$runs'" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); c=v.get("comparison") or {}; \
print(len([x for x in c.get("changes",[]) if x.get("baseline") is not None]), \
len([h for h in c.get("hardware",[]) if h["status"]=="regression"]), \
len([t for t in v["thresholds"] if t["status"]=="fail" and t["kind"]=="deterministic"]), \
len([t for t in v["thresholds"] if t["status"]=="fail" and t["kind"]=="hardware"]), \
"|".join(sorted({h["variant"]+"/"+h["metric"] for h in c.get("hardware",[]) if h["status"]=="regression"})))' "$1"; }
fa_det=0; fa_hw=0; det_det=0; det_hw=0
for i in $(seq 1 "$runs"); do
  rm -rf "$work/clean" "$work/injected"
  scripts/gate-run.sh "$work/clean"
  .build/release/bench-gate "$work/clean/gate" "$work/clean/invariants" "$work/clean/control" --quiet; clean=$?
  read -r cd ch ct_d ct_h cwhat < <(count "$work/clean/gate/gate.json")
  PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex THROTTLE_ARGS="--fixed-interval-ms 110" scripts/gate-run.sh "$work/injected"
  .build/release/bench-gate "$work/injected/gate" "$work/injected/invariants" "$work/injected/control" --quiet; injected=$?
  read -r id ih it_d it_h iwhat < <(count "$work/injected/gate/gate.json")
  [ $((cd + ct_d)) -gt 0 ] && fa_det=$((fa_det + 1))
  [ $((ch + ct_h)) -gt 0 ] && fa_hw=$((fa_hw + 1))
  [ "$id" -gt 0 ] && det_det=$((det_det + 1))
  case "|$iwhat|" in *"|pthread-mutex/"*) det_hw=$((det_hw + 1)) ;; esac
  echo "run $i: clean exit $clean (deterministic changes $cd, hardware regressions $ch ${cwhat:-}, failed thresholds $ct_d/$ct_h); injected exit $injected (deterministic changes $id, hardware regressions $ih ${iwhat:-})"
done
echo "false alarms over $runs runs: deterministic $fa_det, hardware $fa_hw"
echo "detected over $runs runs: changed interval $det_det, 25 % pthread-mutex slowdown $det_hw"
