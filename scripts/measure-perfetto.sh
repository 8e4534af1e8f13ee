#!/usr/bin/env bash
# What --perfetto costs: every tool's default run, release build, with and without
# --perfetto, back to back in each repetition (order alternating), measured by /usr/bin/time:
# CPU time = user + sys (wall time on a shared machine says little), peak RSS. Prints one
# Markdown row per tool: the median CPU of each side, the median of the per-pair ratios, the peaks,
# and the trace's size and event count (the run's `perfetto_events`).
#   scripts/measure-perfetto.sh [REPS] [TOOL...]      REPS defaults to 3, TOOLs to every workload (scripts/workloads)
# PB_BIN_DIR names the binaries' folder (default .build/release). With PB_BASE_BIN_DIR too (another
# build, say main's), each repetition runs that build's pair right after this one's (which one goes
# first alternating as well) and a second row gives its figures: two builds compared under the same
# load, which on a shared machine moves more between runs than the builds differ.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3}
shift || true
tools=("$@")
[ ${#tools[@]} -gt 0 ] || mapfile -t tools < <(scripts/workloads)
bin=${PB_BIN_DIR:-.build/release}
base=${PB_BASE_BIN_DIR:-}
builds=(new)
[ -n "$base" ] && builds=(new base)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), family $(lscpu | awk -F: '/^CPU family/{gsub(/ /,"",$2);print $2}') model $(lscpu | awk -F: '/^Model:/{gsub(/ /,"",$2);print $2}'), $(nproc) vCPUs; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| default run | CPU without | CPU with \`--perfetto\` | ratio (median of $reps pairs) | peak RSS without → with | above the run's peak | trace | events |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for tool in "${tools[@]}"; do
  for build in "${builds[@]}"; do : >"$out/$build.plain" && : >"$out/$build.traced"; done
  for i in $(seq 1 "$reps"); do
    order=(plain traced)
    [ $((i % 2)) -eq 0 ] && order=(traced plain)
    runs=("${builds[@]}")
    [ $((i % 4)) -ge 2 ] && [ ${#builds[@]} -eq 2 ] && runs=(base new)
    for build in "${runs[@]}"; do
      dir=$bin
      [ "$build" = base ] && dir=$base
      for side in "${order[@]}"; do
        rm -rf "$out/run" "$out/trace.pftrace"
        extra=()
        [ "$side" = traced ] && extra=(--perfetto "$out/trace.pftrace")
        /usr/bin/time -o "$out/time" -f '%U %S %M' "$dir/bench-$tool" --quiet --output "$out/run" "${extra[@]}" >/dev/null
        read -r user sys rss <"$out/time"
        echo "$user $sys $rss" >>"$out/$build.$side"
        if [ "$side" = traced ]; then
          echo "$(stat -c %s "$out/trace.pftrace")" >"$out/$build.size"
          python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["metadata"]["parameters"]["perfetto_events"]))' "$(ls "$out"/run/*.json | head -1)" >"$out/$build.events" 2>/dev/null || echo "?" >"$out/$build.events"
        fi
      done
    done
  done
  for build in "${builds[@]}"; do
    name="bench-$tool"
    [ "$build" = base ] && name="bench-$tool ($base)"
    python3 - "$name" "$out/$build.plain" "$out/$build.traced" "$(cat "$out/$build.size")" "$(cat "$out/$build.events")" <<'PY'
import statistics as st, sys
tool, plain, traced, size, events = sys.argv[1:]
def read(path):
    return [(float(u) + float(s), int(m)) for u, s, m in (line.split() for line in open(path))]
p, t = read(plain), read(traced)
ratios = [b[0] / a[0] for a, b in zip(p, t)]
cp, ct = st.median(x[0] for x in p), st.median(x[0] for x in t)
mp, mt = st.median(x[1] for x in p) / 1024, st.median(x[1] for x in t) / 1024
ev = f"{int(events):,}" if events.isdigit() else events
print(f"| {tool} | {cp:.2f} s | {ct:.2f} s | {st.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f}) | "
      f"{mp:.1f} → {mt:.1f} MB | {mt - mp:+.1f} MB | {int(size) / 1e6:.1f} MB | {ev} |")
PY
  done
done
echo
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
