#!/usr/bin/env bash
# Measures the gate's false-alarm and detection rates (the figures in docs/regression-gate.md).
#
#   scripts/gate-experiment.sh [RUNS]          # default 20
#
# Each run is one A/B job (scripts/ab-gate.sh) whose candidate carries an injected regression,
# PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex (25 % more lock operations), and measures:
#   1. detection in A/B mode: the candidate gated against the base (same code, no injection);
#   2. false alarms on unchanged code against a baseline from ANOTHER host: the base side's
#      hardware rounds (unchanged code, 16 repetitions) with the candidate's deterministic slices
#      (the injection touches only live lock runs) checked by bench-gate against an emulated foreign
#      baseline — results/baseline with the CPU
#      fingerprint of a CPU family 26 host and its hardware ratios moved as a real family 26 host's moved
#      them (cpu_ratio_to_atomic ×1/0.71, dispatch-queue cpu_ratio_to_c ×1/0.44, spinlock
#      cpu_ratio_to_c ×1/1.17, the other ratios ×1/0.8). The same check against the same values
#      *without* the foreign fingerprint is the old design (what the gate did before
#      fingerprints), reported beside it;
#   3. every AA_EVERY-th run (default 1: every run), false alarms in A/B mode: a second A/B job
#      with no injection (A/A).
# Prints one line per run and the totals; EXPERIMENT_LOG (default: a temp file) keeps the details.
# Needs release binaries (swift build -c release). A/B runs here use AB_BASE_BIN=.build/release
# (the base is the same code; what differs is only the injected environment), so no second build.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
case "$runs" in
  ''|*[!0-9]*|0) echo "gate-experiment: error: RUNS must be a whole number ≥ 1, got '$runs'" >&2; exit 2 ;;
esac
for tool in $(scripts/workloads --executables) bench-gate; do
  [ -x ".build/release/$tool" ] || { echo "gate-experiment: error: .build/release/$tool missing (swift build -c release)" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=${EXPERIMENT_LOG:-$work/experiment.log}

# The emulated foreign baselines: same values, one with a foreign fingerprint, one with this host's.
python3 - results/baseline "$work/foreign" "$work/unfingerprinted" "$(scripts/cpu-identity)" <<'PY' || exit 2
import json, os, shutil, sys
src, foreign, plain = sys.argv[1:4]
here = json.loads(sys.argv[4])
# How a real CPU family 26 host moved the same-run ratios (its value / the baseline's).
moved = {("cpu_ratio_to_atomic", None): 0.71, ("cpu_ratio_to_c", "dispatch-queue"): 0.44,
         ("cpu_ratio_to_c", "spinlock"): 1.17}
for out, fingerprint in ((foreign, True), (plain, False)):
    os.makedirs(out)
    for name in os.listdir(src):
        if not name.endswith(".json"):
            continue
        doc = json.load(open(os.path.join(src, name)))
        host = doc["metadata"]["host"]
        if fingerprint:
            # That host (family 26), or family 25 when this host is itself a family 26.
            family = 25 if here["cpu_family"] == 26 else 26
            host.update(cpu_vendor="AuthenticAMD", cpu_family=family, cpu_model_number=2, cpu_stepping=1, cpu_microcode="0xb002116")
        else:  # this host's identity: the old design compared whatever it was given
            host.update(here)
        for r in doc["records"]:
            if r["mode"] == "live" and "ratio" in r["metric"]:
                f = moved.get((r["metric"], r["variant"])) or moved.get((r["metric"], None)) or 0.8
                r["value"] = r["value"] / f
        json.dump(doc, open(os.path.join(out, name), "w"))
PY

count() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); c=v.get("comparison") or {}; \
print(len([x for x in c.get("changes",[]) if x.get("baseline") is not None]), \
len([h for h in c.get("hardware",[]) if h["status"]=="regression"]), \
len([h for h in c.get("hardware",[]) if h["status"]=="improvement"]), \
len([h for h in c.get("hardware",[]) if h["status"]=="not_comparable"]), \
len([t for t in v["thresholds"] if t["status"]=="fail"]), \
"|".join(sorted({h["variant"]+"/"+h["metric"] for h in c.get("hardware",[]) if h["status"]=="regression"})) or "-")' "$1"; }

aa_every=${AA_EVERY:-1}
fa_foreign=0 fa_old=0 fa_ab=0 aa_runs=0 det_ab=0 det_thr=0
for i in $(seq 1 "$runs"); do
  t0=$(date +%s)
  rm -rf "$work/ab" "$work/aa"
  AB_BASE_BIN=.build/release scripts/ab-gate.sh --base HEAD --no-build --out "$work/ab" \
    --candidate-env PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex >>"$log" 2>&1
  ab=$?
  [ -f "$work/ab/candidate/gate/gate.json" ] || { echo "gate-experiment: error: the A/B job gave no verdict (exit $ab, see $log)" >&2; exit 2; }
  read -r b_det b_reg b_imp b_nc b_thr b_what < <(count "$work/ab/candidate/gate/gate.json")
  b_thr_pm=$(python3 -c 'import json,sys; print(sum(1 for t in json.load(open(sys.argv[1]))["thresholds"] if t["status"]=="fail" and t["variant"]=="pthread-mutex"))' "$work/ab/candidate/gate/gate.json")
  # Unchanged code against the foreign baseline: the base side's hardware rounds.
  unchanged=("$work/ab/candidate/gate" "$work/ab/candidate/invariants" "$work/ab/candidate/control" "$work"/ab/base/round-*/gate)
  .build/release/bench-gate "${unchanged[@]}" --baseline "$work/foreign" --quiet >>"$log" 2>&1
  foreign=$?
  read -r f_det f_reg f_imp f_nc f_thr f_what < <(count "$work/ab/candidate/gate/gate.json")
  .build/release/bench-gate "${unchanged[@]}" --baseline "$work/unfingerprinted" --quiet >>"$log" 2>&1
  old=$?
  read -r o_det o_reg o_imp o_nc o_thr o_what < <(count "$work/ab/candidate/gate/gate.json")
  aa="-" a_reg="-" a_what="-" a_imp="-"
  if [ $(( (i - 1) % aa_every )) = 0 ]; then
    AB_BASE_BIN=.build/release scripts/ab-gate.sh --base HEAD --no-build --out "$work/aa" >>"$log" 2>&1
    aa=$?
    read -r a_det a_reg a_imp a_nc a_thr a_what < <(count "$work/aa/candidate/gate/gate.json")
    aa_runs=$((aa_runs + 1))
    [ "$aa" != 0 ] && fa_ab=$((fa_ab + 1))
  fi
  [ "$foreign" != 0 ] && fa_foreign=$((fa_foreign + 1))
  [ "$old" != 0 ] && fa_old=$((fa_old + 1))
  case "|$b_what|" in *"|pthread-mutex/"*) det_ab=$((det_ab + 1)) ;; esac
  [ "$b_thr_pm" -gt 0 ] && det_thr=$((det_thr + 1))
  echo "run $i ($(( $(date +%s) - t0 )) s): A/B injected exit $ab (A/B regressions $b_reg: $b_what; failed pthread-mutex thresholds $b_thr_pm);" \
       "foreign baseline exit $foreign (changed $f_det, regressions $f_reg, improvements $f_imp, not comparable $f_nc, failed thresholds $f_thr);" \
       "old design exit $old (regressions $o_reg: $o_what, improvements $o_imp); A/A exit $aa (regressions $a_reg: $a_what, improvements $a_imp)"
done
echo "false alarms over $runs runs: foreign baseline $fa_foreign of $runs; A/A in A/B mode $fa_ab of $aa_runs (old design without fingerprints: $fa_old of $runs)"
echo "detected over $runs runs: 25 % pthread-mutex slowdown by the A/B comparison $det_ab of $runs (by the pthread-mutex threshold alone: $det_thr)"
