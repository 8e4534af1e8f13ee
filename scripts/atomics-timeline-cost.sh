#!/usr/bin/env bash
# What bench-atomics' sampled timeline costs: ns/op with and without --perfetto, in interleaved
# pairs of runs of one release binary (plain then traced, traced then plain, ...).
#
#   scripts/atomics-timeline-cost.sh [PAIRS] [BIN_DIR]    # default 11, .build/release
#
# Prints one line per cell: the medians of both, and the median and quartiles of the per-pair cost
# (traced / plain - 1, each pair run back to back, so slow drift of a shared machine cancels). Also
# what sampling does by construction: the share of operations sampled. Say the load (`uptime`)
# next to any figure you copy from it.
set -euo pipefail
reps=${1:-11}
bin=${2:-.build/release}
args=(--quiet --scenario increment --variant pthread-mutex,atomic --threads 1,2
  --cs-work 0 --gap-work 0 --seeds 1 --duration 0.2 --warmup 0.05 --probe-duration 0)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$reps"); do
  # Alternate which goes first, so neither always runs on a warmer (or busier) machine.
  if [ $((i % 2)) -eq 1 ]; then order="plain traced"; else order="traced plain"; fi
  for mode in $order; do
    extra=()
    [ "$mode" = traced ] && extra=(--events "$work/$mode-$i.events.csv")
    "$bin/bench-atomics" "${args[@]}" --output "$work/$mode-$i" "${extra[@]}" >/dev/null
  done
done
uptime
python3 - "$work" "$reps" <<'PY'
import csv, statistics, sys
from collections import defaultdict
work, reps = sys.argv[1], int(sys.argv[2])
METRICS = ("ns_per_op", "cpu_ns_per_op")  # wall time per operation; CPU time per operation (a thread
# descheduled by a neighbour's work costs wall time, not CPU time: the steadier of the two here)
ns = defaultdict(dict)  # (metric, cell) -> {(mode, i): value}
for mode in ("plain", "traced"):
    for i in range(1, reps + 1):
        for r in csv.DictReader(open(f"{work}/{mode}-{i}/atomics.csv")):
            if r["metric"] in METRICS:
                ns[(r["metric"], r["scenario"], r["variant"], int(r["threads"]))][(mode, i)] = float(r["value"])
sampled = total = 0
read = []  # a lock-free sampled operation's slice: one clock read plus the operation
for i in range(1, reps + 1):
    for r in csv.DictReader(open(f"{work}/traced-{i}.events.csv")):
        if r["kind"] == "slice" and r["event"] in ("hold", "operation"):
            sampled += 1
            if r["event"] == "operation":
                read.append(float(r["cost_ms"]) * 1e6)
        elif r["event"] == "done":
            total += float(r["value"])
share = sampled / total
extra = 3 * statistics.median(read)  # three clock reads per sample, each no dearer than that slice
print(f"{'metric':<13} {'scenario':<10} {'variant':<14} {'threads':>7} {'plain':>8} {'traced':>8} "
      f"{'cost % (median of pairs)':>25} {'quartiles':>17} {'cost % from its parts':>21}")
medians = []
by_metric = defaultdict(list)
for cell in sorted(ns):
    v = ns[cell]
    plain = [v[("plain", i)] for i in range(1, reps + 1)]
    traced = [v[("traced", i)] for i in range(1, reps + 1)]
    ratios = sorted(100 * (t / p - 1) for p, t in zip(plain, traced))
    q = statistics.quantiles(ratios, n=4)
    medians.append(statistics.median(ratios))
    by_metric[cell[0]].append(medians[-1])
    print(f"{cell[0]:<13} {cell[1]:<10} {cell[2]:<14} {cell[3]:>7} {statistics.median(plain):>8.2f} {statistics.median(traced):>8.2f} "
          f"{medians[-1]:>+25.2f} {q[0]:>+8.2f}..{q[2]:+.2f} {100 * share * extra / statistics.median(plain):>21.3f}")
print("median over the cells of the per-pair median cost: "
      + ", ".join(f"{m} {statistics.median(v):+.2f} %" for m, v in sorted(by_metric.items())))
print(f"operations sampled: {sampled} of {total:.0f} ({100 * share:.3f} %); a sampled atomic operation's slice "
      f"(one clock read and the operation): median {statistics.median(read):.1f} ns, so a sample costs at most "
      f"~{extra:.0f} ns more; 'from its parts' = share x that / plain")
PY
