#!/usr/bin/env bash
# Reproduces the bench-throttle speed and memory figures in the README:
#  - simulator throughput (events per second, one core, release build),
#  - peak RSS for a 10-million-commit trace,
#  - wall time of the default matrix in debug and in release.
# The figures are hardware numbers: expect run-to-run noise on a shared machine; the script
# repeats each measurement and prints every repetition.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

swift build -c release --product bench-throttle >/dev/null
swift build --product bench-throttle >/dev/null

echo "10-million-commit trace (Poisson 1000/s for 10000 s, fixed-rate), release:"
for i in 1 2 3; do
  /usr/bin/time -f "  peak RSS %M KiB, wall %e s" .build/release/bench-throttle --quiet --scenario steady \
    --variant fixed-rate --rate 1000 --duration 10000 --seeds 1 --output "$out" --format json \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["metadata"]["parameters"]; r={x["metric"]:x["value"] for x in d["records"]}; print("  %d commits, %d events, %.2f M events/s" % (r["commits"], p["sim_events"], p["sim_events_per_s"]/1e6))'
done

echo "default matrix (every policy x every scenario x 3 seeds):"
for config in debug release; do
  for i in 1 2 3; do
    /usr/bin/time -f "  $config: wall %e s, peak RSS %M KiB" .build/$config/bench-throttle --quiet --output "$out" >/dev/null
  done
done
