#!/usr/bin/env bash
# What bench-atomics' sampled timeline costs: ns/op with and without --perfetto, in interleaved
# runs of one release binary (plain, traced, traced, plain, ...), medians per variant and threads.
#
#   scripts/atomics-timeline-cost.sh [REPETITIONS] [BIN_DIR]    # default 7, .build/release
#
# Prints one line per (variant, threads): the two medians and the cost in percent. Say the load
# (`uptime`) next to any figure you copy from it.
set -euo pipefail
reps=${1:-7}
bin=${2:-.build/release}
args=(--quiet --scenario increment,transition --variant pthread-mutex,spinlock,mutex,atomic --threads 1,2
  --cs-work 0 --gap-work 0 --seeds 1 --duration 0.3 --warmup 0.05 --probe-duration 0)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in $(seq 1 "$reps"); do
  # Alternate which goes first, so neither always runs on a warmer (or busier) machine.
  if [ $((i % 2)) -eq 1 ]; then order="plain traced"; else order="traced plain"; fi
  for mode in $order; do
    extra=()
    [ "$mode" = traced ] && extra=(--perfetto "$work/$mode-$i.pftrace")
    "$bin/bench-atomics" "${args[@]}" --output "$work/$mode-$i" "${extra[@]}" >/dev/null
  done
done
uptime
python3 - "$work" "$reps" <<'PY'
import csv, statistics, sys
from collections import defaultdict
work, reps = sys.argv[1], int(sys.argv[2])
ns = defaultdict(list)
for mode in ("plain", "traced"):
    for i in range(1, reps + 1):
        for r in csv.DictReader(open(f"{work}/{mode}-{i}/atomics.csv")):
            if r["metric"] == "ns_per_op":
                ns[(r["scenario"], r["variant"], int(r["threads"]), mode)].append(float(r["value"]))
keys = sorted({k[:3] for k in ns})
print(f"{'scenario':<11} {'variant':<14} {'threads':>7} {'plain ns/op':>12} {'traced ns/op':>13} {'cost %':>7}")
costs = []
for k in keys:
    a, b = statistics.median(ns[k + ("plain",)]), statistics.median(ns[k + ("traced",)])
    costs.append(100 * (b - a) / a)
    print(f"{k[0]:<11} {k[1]:<14} {k[2]:>7} {a:>12.2f} {b:>13.2f} {costs[-1]:>+7.2f}")
print(f"median cost over the {len(keys)} cells: {statistics.median(costs):+.2f} %")
PY
