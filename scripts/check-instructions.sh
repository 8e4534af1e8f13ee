#!/usr/bin/env bash
# The micro-benchmarks' instruction counts under callgrind, checked against committed thresholds:
# a time gate that does not depend on the host's speed, load or microarchitecture.
#
# Usage: scripts/check-instructions.sh [--filter REGEX] [--thresholds FILE] [--tolerance PCT]
#                                      [--json FILE] [--no-build]
#        scripts/check-instructions.sh --update [--filter REGEX] [--thresholds FILE]
#
#   (default)         build `instruction-counts` (Benchmarks/, release), run it under
#                     `valgrind --tool=callgrind`, and compare each kernel's instructions per
#                     operation with FILE (default Benchmarks/Thresholds/<Swift major.minor>/instructions.json)
#   --filter REGEX    only the kernels whose whole name matches (as ordo-one's --filter)
#   --tolerance PCT   allowed increase in percent (default: the file's tolerance_percent)
#   --json FILE       also write the measured counts there
#   --no-build        use the binary already built
#   --update          re-record FILE from this run (without --filter the file is rewritten; with
#                     it, the matching kernels are updated and the others kept)
#
# How: callgrind collects only inside `pb_measured_region` and writes one profile after each call;
# each kernel runs there with N and with 2N operations, and (I(2N) − I(N)) / N is its count per
# operation, free of the region's fixed cost. Environment variables reach the kernels, so
# PATTERNBENCH_INJECT_REGRESSION=atomics:pthread-mutex slows the pthread-mutex kernels as it slows
# bench-atomics. SWIFT_DETERMINISTIC_HASHING=1 is set: Swift seeds its hashing per process, which
# otherwise moves dictionary work from run to run.
#
# Exit status: 0 within the thresholds (a count lower than threshold − tolerance passes with a
# warning to re-record), 1 regression, 2 tool or usage failure (no valgrind, a build failure, a
# crash, a malformed thresholds file, a kernel without a threshold, a threshold without a kernel).
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "check-instructions: $*"; }
die() { echo "check-instructions: error: $1" >&2; exit "${2:-2}"; }
usage() { sed -n '5,/^# Exit status/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

update=0 build=1 filter="" thresholds="" tolerance="" json_out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --update) update=1 ;;
    --no-build) build=0 ;;
    --filter) [ $# -ge 2 ] || usage; filter=$2; shift ;;
    --thresholds) [ $# -ge 2 ] || usage; thresholds=$2; shift ;;
    --tolerance) [ $# -ge 2 ] || usage; tolerance=$2; shift ;;
    --json) [ $# -ge 2 ] || usage; json_out=$2; shift ;;
    -h|--help) usage ;;
    *) echo "check-instructions: error: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
if [ -n "$tolerance" ] && ! [[ "$tolerance" =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
  die "--tolerance must be a non-negative number of percent, got '$tolerance'"
fi
[ "$update" = 1 ] && [ -n "$tolerance" ] && die "--update records counts; --tolerance is for checking (edit tolerance_percent in the file)"
command -v valgrind >/dev/null || die "valgrind is not installed (Debian: apt-get install valgrind)"
command -v python3 >/dev/null || die "python3 is needed to read callgrind's profiles"

swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
[ -n "$swift_version" ] || die "cannot read the Swift version from 'swift --version'"
thresholds=${thresholds:-$root/Benchmarks/Thresholds/$swift_version/instructions.json}

# PB_BENCHMARKS_SCRATCH: the build folder, shared with check-microbenchmarks.sh (default Benchmarks/.build).
scratch="${PB_BENCHMARKS_SCRATCH:-$root/Benchmarks/.build}"
binary="$scratch/release/instruction-counts"
if [ "$build" = 1 ]; then
  build_log=$(mktemp)
  if ! swift build -c release --package-path "$root/Benchmarks" --scratch-path "$scratch" --product instruction-counts >"$build_log" 2>&1; then
    tail -20 "$build_log" >&2
    rm -f "$build_log"
    die "the release build of instruction-counts failed"
  fi
  rm -f "$build_log"
fi
[ -x "$binary" ] || die "$binary is missing (build it, or drop --no-build)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 the Swift compiler writes ("Possibly corrupted debuginfo
# file ... Giving up"): it runs a copy without debug information. The symbol table stays, and
# with it the name `pb_measured_region`.
command -v objcopy >/dev/null || die "objcopy (binutils) is needed to strip the debug information valgrind cannot read"
objcopy --strip-debug "$binary" "$work/instruction-counts" || die "objcopy could not copy $binary"
args=()
[ -n "$filter" ] && args=(--filter "$filter")
# PB_CALLGRIND_PROFILES=DIR (for scripts/test-check-instructions.sh): when DIR holds a run's
# profiles, they are read instead of counting again; otherwise this run's are copied there
# (without --filter only: a filtered run counts its own kernels). The
# checker's refusals of bad thresholds files then cost no callgrind run of 40 kernels each.
profiles=${PB_CALLGRIND_PROFILES:-}
if [ -n "$profiles" ] && [ -z "$filter" ] && [ -s "$profiles/kernels.tsv" ]; then
  cp "$profiles"/kernels.tsv "$profiles"/cg.out* "$work/"
elif ! SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --collect-atstart=no \
     --toggle-collect=pb_measured_region --dump-after=pb_measured_region --dump-instr=no \
     --callgrind-out-file="$work/cg.out" --log-file="$work/valgrind.log" \
     "$work/instruction-counts" "${args[@]}" >"$work/kernels.tsv" 2>"$work/stderr"; then
  # A refused argument is the program's own one line; a crash says nothing itself, so callgrind's
  # log (which has the signal and the stack) is kept for it.
  if [ -s "$work/stderr" ]; then die "$(head -1 "$work/stderr" | sed 's/^instruction-counts: error: //')"; fi
  cp "$work/valgrind.log" "${TMPDIR:-/tmp}/check-instructions-valgrind.log" 2>/dev/null
  die "instruction-counts crashed under callgrind (callgrind's log: ${TMPDIR:-/tmp}/check-instructions-valgrind.log)"
elif [ -n "$profiles" ] && [ -z "$filter" ]; then
  mkdir -p "$profiles" && cp "$work"/kernels.tsv "$work"/cg.out* "$profiles/"
fi

python3 - "$work" "$thresholds" "$update" "$tolerance" "$json_out" "$filter" "$swift_version" \
  "$(valgrind --version)" "${PATTERNBENCH_INJECT_REGRESSION:-}" "$("$root/scripts/cpu-identity")" <<'PY'
import glob, json, os, re, sys
work, path, update, tolerance, json_out, filt, swift, valgrind, injected, cpu = sys.argv[1:11]
update = update == "1"

def fail(message, code=2):
    print(f"check-instructions: error: {message}", file=sys.stderr)
    sys.exit(code)

kernels = [line.rstrip("\n").split("\t") for line in open(os.path.join(work, "kernels.tsv")) if line.strip()]
# Profiles: cg.out.<part>, one per call of the measured region, in call order; cg.out itself is the
# (empty) final dump at exit.
parts = {}
for f in glob.glob(os.path.join(work, "cg.out.*")):
    part = int(f.rsplit(".", 1)[1])
    summary = None
    for line in open(f):
        if line.startswith("summary:"):
            summary = int(line.split()[1])
            break
    if summary is None:
        fail(f"callgrind profile {os.path.basename(f)} has no summary line")
    parts[part] = summary
if len(parts) != 2 * len(kernels) or sorted(parts) != list(range(1, 2 * len(kernels) + 1)):
    fail(f"expected {2 * len(kernels)} callgrind profiles for {len(kernels)} kernels, found {len(parts)}")
measured = {}
for i, (name, n) in enumerate(kernels):
    first, second = parts[2 * i + 1], parts[2 * i + 2]
    per_op = (second - first) / int(n)
    if per_op <= 0:
        fail(f"{name}: {second} instructions for 2N operations, {first} for N: not a count per operation")
    measured[name] = round(per_op, 3)

def host():
    """This host's CPU, for the record only: counts are compared whatever CPU recorded them."""
    identity = json.loads(cpu)
    return " ".join(str(identity[k]) for k in ("cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping", "cpu_microcode"))

def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError as e:
        fail(f"{path}: not JSON ({e})")
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror})")


def write_json(path, doc):
    """Whole or not at all: a temporary file renamed into place."""
    try:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w") as out:
            json.dump(doc, out, indent=2)
            out.write("\n")
        os.replace(tmp, path)
    except OSError as e:
        fail(f"{path}: cannot write ({e.strerror})")


if json_out:
    write_json(json_out, {"instructions_per_operation": measured, "valgrind": valgrind, "swift": swift, "host": host(),
                          "injected_regression": injected or None})

if update:
    if injected:
        fail("PATTERNBENCH_INJECT_REGRESSION is set: refusing to record an injected slowdown as the thresholds")
    doc = read_json(path) if os.path.exists(path) else {"tolerance_percent": 5.0, "kernels": {}}
    if not isinstance(doc, dict):
        fail(f"{path}: not a thresholds object")
    kernels_doc = doc.get("kernels", {}) if filt else {}
    kernels_doc.update(measured)
    doc.update(kernels=dict(sorted(kernels_doc.items())), valgrind=valgrind, swift=swift, recorded_on=host())
    write_json(path, doc)
    print(f"check-instructions: recorded {len(measured)} kernels in {path}")
    sys.exit(0)

if not os.path.exists(path):
    fail(f"no thresholds at {path} (record them with --update)")
doc = read_json(path)
if not isinstance(doc, dict) or not isinstance(doc.get("kernels"), dict):
    fail(f"{path}: field 'kernels' must be an object of kernel name -> instructions per operation")
for name, value in doc["kernels"].items():
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        fail(f"{path}: kernels.{name} must be a positive number, got {value!r}")
tol = doc.get("tolerance_percent")
if tolerance:
    tol = float(tolerance)
if isinstance(tol, bool) or not isinstance(tol, (int, float)) or tol < 0:
    fail(f"{path}: field 'tolerance_percent' must be a non-negative number, got {tol!r}")
expected = doc["kernels"]
missing = sorted(set(measured) - set(expected))
if missing:
    fail(f"no threshold for {', '.join(missing)} in {path} (record with --update)")
if not filt:
    stale = sorted(set(expected) - set(measured))
    if stale:
        fail(f"{path} has thresholds for kernels that no longer exist: {', '.join(stale)} (re-record with --update)")
if doc.get("valgrind") and doc["valgrind"] != valgrind:
    print(f"check-instructions: note: thresholds counted with {doc['valgrind']}, this is {valgrind}")

worse, better = [], []
print(f"| kernel | threshold | now | change |")
print(f"|---|---:|---:|---:|")
for name in sorted(measured):
    now, then = measured[name], expected[name]
    change = (now - then) / then * 100
    mark = ""
    if change > tol:
        worse.append(name); mark = " **REGRESSION**"
    elif change < -tol:
        better.append(name); mark = " better"
    print(f"| {name} | {then:.3f} | {now:.3f} | {change:+.2f} %{mark} |")
print()
if better:
    print(f"check-instructions: warning: {len(better)} kernel(s) need fewer instructions than their threshold by more than {tol:g} %: re-record with --update ({', '.join(better)})")
if worse:
    print(f"check-instructions: REGRESSION: {len(worse)} of {len(measured)} kernels need more than {tol:g} % more instructions per operation: {', '.join(worse)}")
    sys.exit(1)
print(f"check-instructions: {len(measured)} kernels within {tol:g} % of their instruction counts")
PY
