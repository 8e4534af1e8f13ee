#!/usr/bin/env bash
# Reproduces the bench-throttle speed and memory figures in the README:
#  - simulator throughput (events per second, one core, release build), beside a bare C event
#    loop of the same shape run in the same repetition, and the ratio of the two,
#  - peak RSS for a 10-million-commit and a 100-million-commit trace,
#  - wall time of the default matrix in debug and in release.
# The figures are hardware numbers: expect run-to-run noise on a shared machine; the script
# repeats each measurement and prints every repetition.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

swift build -c release --product bench-throttle >/dev/null
swift build --product bench-throttle >/dev/null

# The bare C event loop of the same shape (Benchmarks/Skeleton/event_loop.c), compiled with the
# system C compiler: the ratio of the two rates, measured back to back in each repetition, is what
# holds on a noisy machine (issue 20's goal: within 4x).
cc -O2 -o "$out/event_loop" Benchmarks/Skeleton/event_loop.c -lm

echo "10-million-commit trace (Poisson 1000/s for 10000 s, fixed-rate), release, against the C skeleton (load: $(cut -d' ' -f1-3 /proc/loadavg)):"
for i in 1 2 3; do
  c_rate=$("$out/event_loop" 1000 10000 "$i" | awk '{print $6}')
  /usr/bin/time -o "$out/time" -f "%M %e" .build/release/bench-throttle --quiet --scenario steady \
    --variant fixed-rate --rate 1000 --duration 10000 --seeds 1 --output "$out" --format json >"$out/run.json"
  read -r rss wall <"$out/time"
  python3 - "$out/run.json" "$c_rate" "$rss" "$wall" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["metadata"]["parameters"]
r = {x["metric"]: x["value"] for x in d["records"]}
c_rate, rss, wall = float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
swift = p["sim_events_per_s"]
print("  %d commits, %d events: bench-throttle %.2f M events/s, C skeleton %.2f M events/s, ratio %.2fx; "
      "peak RSS %.1f MB, wall %.2f s" % (r["commits"], p["sim_events"], swift / 1e6, c_rate / 1e6, c_rate / swift, rss / 1024, wall))
PY
done

# --duration is at most 86400 s, so the 100 million commits come at 2000/s.
echo "100-million-commit trace (Poisson 2000/s for 50000 s), release, once: peak RSS must not grow with the run:"
/usr/bin/time -f "  peak RSS %M KiB, wall %e s" .build/release/bench-throttle --quiet --scenario steady \
  --variant fixed-rate --rate 2000 --duration 50000 --seeds 1 --output "$out" >/dev/null

echo "default matrix (every policy x every scenario x 3 seeds):"
for config in debug release; do
  for i in 1 2 3; do
    /usr/bin/time -f "  $config: wall %e s, peak RSS %M KiB" .build/$config/bench-throttle --quiet --output "$out" >/dev/null
  done
done
