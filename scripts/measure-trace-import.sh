#!/usr/bin/env bash
# Reproduces the trace-import figures in docs/from-instruments.md: a 20-million-commit CSV replay
# against a generated run of the same size (interleaved, the ratio of each pair), and the xctrace
# XML reader's rows per second on a 1-million-commit export, release build, peak RSS from
# /usr/bin/time -v. The inputs are generated into a temporary folder (about 700 MB) and removed.
#
# Usage: scripts/measure-trace-import.sh [REPETITIONS (default 3)]
set -euo pipefail
cd "$(dirname "$0")/.."
repetitions=${1:-3}
case "$repetitions" in *[!0-9]* | "" | 0) echo "measure-trace-import: usage: scripts/measure-trace-import.sh [REPETITIONS]" >&2; exit 2 ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift build -c release --product bench-throttle >/dev/null
bin=.build/release/bench-throttle
python=${PYTHON:-python3}

# 20 000 000 commits, Poisson at 231.48/s (mean gap 4.32 ms: 24 h), 1-30 rows.
awk 'BEGIN{srand(7); print "time_ms,rows"; t=0; for(i=0;i<20000000;i++){ t += -log(1-rand())*4.32; printf "%.3f,%d\n", t, 1+int(rand()*30) } }' >"$out/big.csv"
# 1 000 000 app commits plus another process's and other signposts, in xctrace's layout.
"$python" scripts/trace-fixtures.py commits "$out" bigxml --commits 1000000 --formats xml
xml_rows=$(grep -c '^<row>' "$out/bigxml.xml")

measure() {  # label, then the command; prints label, CPU s (user+sys), wall s, peak RSS MB
  local label=$1
  shift
  /usr/bin/time -v "$@" >/dev/null 2>"$out/time" || true
  awk -v label="$label" -F': ' '
    /User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
    /Elapsed \(wall clock\)/ {n=split($2, p, ":"); w=0; for (i=1;i<=n;i++) w=w*60+p[i]}
    END {printf "%-10s cpu %6.2f s  wall %6.2f s  rss %5.0f MB\n", label, u+s, w, r/1024}' "$out/time"
}
cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$out/time"; }

echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "CSV: $(wc -c <"$out/big.csv") bytes; XML: $(wc -c <"$out/bigxml.xml") bytes, $xml_rows rows"
common=(--variant immediate --device fast --quiet)
for i in $(seq 1 "$repetitions"); do
  for pipeline in observer conversation; do
    # One seed: a scenario's default is three, which would be three times the commits.
    measure "gen-${pipeline:0:3}" "$bin" --scenario steady --rate 231.4815 --duration 86400 --seeds 1 --pipeline "$pipeline" "${common[@]}" --output "$out/g"
    g=$(cpu)
    measure "csv-${pipeline:0:3}" "$bin" --trace "$out/big.csv" --pipeline "$pipeline" "${common[@]}" --output "$out/c"
    c=$(cpu)
    awk -v g="$g" -v c="$c" -v i="$i" -v p="$pipeline" 'BEGIN {printf "repetition %d, %s pipeline: csv/generated %.2fx\n", i, p, c/g}'
  done
  # One full pass of the XML reader: no signpost matches, so the run stops (exit 65) after reading it all.
  measure xml-pass "$bin" --trace "$out/bigxml.xml" --trace-signpost none "${common[@]}" --output "$out/x"
  x=$(cpu)
  measure xml-run "$bin" --trace "$out/bigxml.xml" "${common[@]}" --output "$out/xr"
  awk -v x="$x" -v rows="$xml_rows" -v i="$i" 'BEGIN {printf "repetition %d: xml %.2f M rows/s (one pass)\n", i, rows/x/1e6}'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
