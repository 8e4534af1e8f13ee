#!/usr/bin/env bash
# The scaffold cannot rot: CI runs `scripts/new-workload demo` in a clone of this checkout and checks
# that what it generated builds, runs, is formatted, and passes its own tests and every test of the
# registry-derived lists. Nothing is written into this checkout.
#
#   scripts/test-new-workload.sh [NAME]     (default: demo; prints each phase's time)
#   FULL_GATE=1 ...                         also gate every deterministic slice against the new baseline
#   PYTHON=.venv-ci/bin/python ...          also run the analysis package's registry tests
#   PB_SCAFFOLD_COPY=1 ...                  use a plain copy even where an overlay would work
#
# The clone: where the kernel lets us (root, or unprivileged user namespaces), a copy-on-write one —
# an overlay whose lower layer is this checkout, with its .build, mounted over the checkout's own
# path in a private mount namespace, its writes going to a temporary folder. The paths and the
# files' identities are the checkout's, so the build stays incremental: the whole script took
# 170 s. Elsewhere (or with PB_SCAFFOLD_COPY=1), a plain copy of the working tree and its .build in
# a temporary folder, without clang's module caches (they record their absolute path); SwiftPM
# then recompiles every module at the new path: 273 s (2-vCPU AMD EPYC VM, load average 3-10).
# Either way the working tree as it is, uncommitted changes included, is what gets tested.
#
# Checked, in the clone:
#   1. bad and taken names are refused with one line and exit 2, and write nothing;
#   2. scripts/new-workload NAME (builds bench-NAME and bench-gate, records the baseline slice), and
#      a second run of it is refused; every list of workloads in the docs names NAME (the generated
#      blocks, the claim count, results/README.md's factor columns) and scripts/generate-docs --check passes;
#   3. the new binary runs (--list, --quick), scripts/format.sh --check passes, the build with
#      tests has no warning in the project's code;
#   4. swift test: the new workload's unit and end-to-end tests (its default run passes the gate with
#      its claim of results/thresholds.json, a changed model is caught) and WorkloadRegistryTests (the
#      gate's list, the analysis copy, every written-out list, scripts/workloads). Not BenchGateTests'
#      run of every workload against every claim: CI's `swift test` runs it on the same tree minus
#      the new workload, whose claim its own end-to-end test gates; here it was 28-52 s of
#      the other workloads' runs again;
#   5. results/baseline's existing files unchanged; with FULL_GATE=1, every deterministic slice
#      (scripts/gate-run.sh --part deterministic) gated against the new results/baseline: 0 changed;
#   6. with PYTHON, pytest analysis/tests/test_workloads.py (the analysis registry, every workload
#      charted) and test_tidy.py (the new baseline's CSV read with the registry's types, and the
#      file's other checks; CI's own pytest run covers every other workload's CSVs).
set -euo pipefail
name=${1:-demo}
root="$(cd "$(dirname "$0")/.." && pwd)"
export GIT_OPTIONAL_LOCKS=0  # git status never rewrites an index (a worktree's lives outside the clone)

if [ -z "${PB_SCAFFOLD_CLONE:-}" ]; then
  started=$(date +%s)
  if [ -n "${PYTHON:-}" ] && [[ "$PYTHON" == */* ]]; then PYTHON="$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON")"; fi
  export PYTHON
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/upper" "$work/overlay-work"
  userns=()
  [ "$(id -u)" -eq 0 ] || userns=(-r)
  mount_and_run='mount -t overlay overlay -o "lowerdir=$0,upperdir=$1/upper,workdir=$1/overlay-work" "$0" 2>/dev/null || exit 97
    cd "$0" && exec "$0/scripts/test-new-workload.sh" "$2"'
  status=0
  if [ -z "${PB_SCAFFOLD_COPY:-}" ] && command -v unshare >/dev/null && unshare -m "${userns[@]}" true 2>/dev/null; then
    PB_SCAFFOLD_CLONE=overlay PB_SCAFFOLD_STARTED=$started unshare -m "${userns[@]}" bash -c "$mount_and_run" "$root" "$work" "$name" \
      || status=$?
    [ "$status" -ne 97 ] && exit "$status"
    echo "test-new-workload: no overlay mount here; copying the working tree and its .build instead (a cold build)"
  fi
  clone=$work/patternbench
  mkdir -p "$clone"
  git -C "$root" ls-files -z --cached --others --exclude-standard \
    | (cd "$root" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) \
    | (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$clone"
  git -C "$clone" init -q && git -C "$clone" add -A && git -C "$clone" -c user.name=ci -c user.email=ci@localhost commit -qm copy
  if [ -d "$root/.build" ]; then
    cp -a "$root/.build" "$clone/.build"
    # Clang's module caches record their absolute path; at the new path they only fail the build.
    find "$clone/.build" -type d -name ModuleCache -prune -exec rm -rf {} +
  fi
  PB_SCAFFOLD_CLONE=copy PB_SCAFFOLD_STARTED=$started "$clone/scripts/test-new-workload.sh" "$name"
  exit $?
fi

# In the clone (this script's folder's parent is the clone's root).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=${PB_SCAFFOLD_STARTED:-$(date +%s)}
phase_start=$started
phase() { echo "test-new-workload: $1 ($(($(date +%s) - phase_start)) s)"; phase_start=$(date +%s); }
fail() { echo "test-new-workload: FAILED: $*" >&2; exit 1; }
cd "$root"
phase "a $PB_SCAFFOLD_CLONE clone of the checkout at $root"
git status --porcelain >"$work/status-before"
sha256sum results/baseline/* >"$work/baseline-before"

# 1. Refusals: one line on stderr, exit 2, nothing written.
for bad in "Bad_Name" "cache" "locking" "9lives" "-x" "gate"; do
  status=0
  scripts/new-workload "$bad" >"$work/out" 2>"$work/err" || status=$?
  [ "$status" -eq 2 ] || fail "new-workload '$bad' exited $status, expected 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "new-workload '$bad' printed $(wc -l <"$work/err") lines on stderr: $(cat "$work/err")"
  git status --porcelain | cmp -s - "$work/status-before" || fail "new-workload '$bad' wrote files: $(git status --porcelain | head -3)"
done
phase "bad and taken names refused"

# 2. Generate, build, record the baseline; a second time is refused. Then count what it touched:
#    files created or changed, and lines added (the measure of what adding a workload costs).
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf "$work/before.tar"
scripts/new-workload "$name"
phase "scripts/new-workload $name (with its build and baseline)"
mkdir -p "$work/before" && tar -xf "$work/before.tar" -C "$work/before"
git ls-files -z --cached --others --exclude-standard | python3 -c '
import subprocess, sys
from pathlib import Path
before = Path(sys.argv[1])
new, edited, added, swift = [], [], 0, 0
changed = {}  # edited path -> (lines added, lines removed)
for path in sorted(p for p in sys.stdin.read().split("\0") if p and Path(p).is_file()):
    old = before / path
    if old.is_file() and old.read_bytes() == Path(path).read_bytes():
        continue
    if old.is_file():
        diff = subprocess.run(["diff", "-U0", str(old), path], capture_output=True, text=True).stdout.splitlines()
        lines = sum(1 for d in diff if d.startswith("+") and not d.startswith("+++"))
        changed[path] = (lines, sum(1 for d in diff if d.startswith("-") and not d.startswith("---")))
        edited.append(f"{path} (+{lines})")
    else:
        lines = len(Path(path).read_text(encoding="utf-8").splitlines())
        new.append(f"{path} ({lines})")
    added += lines
    swift += lines if path.endswith(".swift") else 0
print(f"test-new-workload: new-workload touched {len(new) + len(edited)} files ({len(new)} new, {len(edited)} edited), "
      f"{added} lines added ({swift} Swift)")
for f in new:
    print(f"  new     {f}")
for f in edited:
    print(f"  edited  {f}")
# Outside its own files the new workload is one entry of each list that names every workload:
# Package.swift gains its `workloads` entry (a comment and the entry, wrapped for a long name) and
# the registry one descriptor, nothing removed: every other target, product and dependency derives
# from those, so nothing else needs a hand edit (the build and tests below run on this as written).
for path, most in {"Package.swift": 8, "Sources/Measurement/Workload/WorkloadRegistry.swift": 1}.items():
    lines_added, removed = changed.get(path, (0, 0))
    if not 1 <= lines_added <= most or removed:
        sys.exit(f"test-new-workload: FAILED: {path}: +{lines_added} -{removed} lines, expected one entry (+1..{most}, -0)")
' "$work/before"
# Every list of workloads names the new one: the docs' generated blocks (README's tools, results/README.md's
# names, docs/regression-gate.md's baseline contents, the guide's baseline table) and the claim count,
# rewritten by the scaffold through scripts/generate-docs, and results/README.md's factor columns.
python3 - "$name" <<'PY' || fail "a list of workloads lacks $name (above)"
import json, re, sys
name = sys.argv[1]
def block(path, kind):
    text = open(path, encoding="utf-8").read()
    found = re.search(r"<!-- generated by scripts/generate-docs: " + kind + r"\b[^>]*-->\n(.*?)<!-- end generated -->", text, re.S)
    return found.group(1) if found else ""
t = json.load(open("results/thresholds.json", encoding="utf-8"))
claims = len(t["thresholds"]) + len(t["hardware_metrics"])
checks = {
    "README.md (tools)": f"`bench-{name}`" in block("README.md", "tools"),
    f"README.md (claims: {claims})": f"**{claims} claims**" in block("README.md", "claims"),
    "results/README.md (names)": f"`{name}`" in block("results/README.md", "workload-names"),
    "results/README.md (factor columns)": f"\n| {name} |" in open("results/README.md", encoding="utf-8").read(),
    "docs/regression-gate.md (baseline contents)": f"\n| {name} |" in block("docs/regression-gate.md", "baseline-contents"),
    f"docs/bench-{name}.md (baseline table)": "| `coalesce` |" in block(f"docs/bench-{name}.md", "baseline"),
}
missing = [where for where, ok in checks.items() if not ok]
for where in missing:
    print(f"test-new-workload: {name} is missing from {where}", file=sys.stderr)
sys.exit(1 if missing else 0)
PY
python3 scripts/generate-docs --check
status=0
scripts/new-workload "$name" 2>"$work/err" >/dev/null || status=$?
{ [ "$status" -eq 2 ] && grep -q "exists already" "$work/err"; } || fail "a second new-workload $name was not refused (exit $status)"

# 3. It runs, it is formatted, it builds without warnings.
bin=.build/debug/bench-$name
"$bin" --list | grep -q "variants (--variant)" || fail "$bin --list"
"$bin" --quick --quiet --output "$work/quick" >/dev/null
[ -s "$work/quick/$name.csv" ] || fail "$bin --quick wrote no CSV"
scripts/format.sh --check
swift build --build-tests >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; fail "swift build --build-tests"; }
if grep -E "^/.*: warning: " "$work/build.log" | grep -v "/.build/"; then fail "the build has warnings"; fi
phase "bench-$name runs; formatted; swift build --build-tests without warnings"

# 4. Its tests and the registry-derived lists.
module=$(python3 -c "import sys; print(''.join(p.capitalize() for p in sys.argv[1].split('-')))" "$name")
swift test --skip-build --filter "${module}ModelTests|Bench${module}Tests|WorkloadRegistryTests"
phase "swift test: ${module}ModelTests, Bench${module}Tests, WorkloadRegistryTests"

# 5. The existing workloads' baselines are untouched.
sha256sum --quiet -c "$work/baseline-before" || fail "new-workload changed an existing file of results/baseline"
if [ "${FULL_GATE:-0}" = 1 ]; then
  BIN=$root/.build/debug scripts/gate-run.sh --part deterministic "$work/slices"
  # The thresholds include claims on the hardware slices (release builds, not run here): every
  # claim is marked optional, so one that selects nothing is skipped, not an input error.
  python3 - results/thresholds.json "$work/thresholds.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1], encoding="utf-8"))
for claim in t["thresholds"] + t["hardware_metrics"]:
    claim.setdefault("optional", "scripts/test-new-workload.sh runs the deterministic slices only")
json.dump(t, open(sys.argv[2], "w", encoding="utf-8"))
PY
  .build/debug/bench-gate "$work/slices/gate" "$work/slices/invariants" "$work/slices/control" --only deterministic \
    --thresholds "$work/thresholds.json" >"$work/gate.txt" || { cat "$work/gate.txt"; fail "bench-gate"; }
  grep -E "^### Deterministic metrics" "$work/gate.txt"
  grep -qE "^### Deterministic metrics: [0-9]+ compared, 0 changed" "$work/gate.txt" || fail "deterministic values changed"
fi
phase "the existing baselines are unchanged${FULL_GATE:+ (and gated: 0 changed)}"

# 6. The analysis package reads the new registry and charts the new workload.
if [ -n "${PYTHON:-}" ]; then
  # Of test_tidy's per-kind dtype checks, the new workload's only: CI's own pytest run checks every
  # other kind on the same tree (each kind's check makes a fresh --quick run of its tool).
  PB_BIN_DIR=$root/.build/debug "$PYTHON" -m pytest -q -x -p no:cacheprovider analysis/tests/test_workloads.py \
    analysis/tests/test_tidy.py -k "not test_every_csv_loads_with_defaults_and_stable_dtypes or [$name]"
  phase "pytest analysis/tests/test_workloads.py (registry, charts) and test_tidy.py (the new workload's CSV types)"
fi
echo "test-new-workload: bench-$name generated, built, run and tested in $(($(date +%s) - started)) s"
