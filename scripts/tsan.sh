#!/usr/bin/env bash
# Runs the unit tests of every module that starts threads or processes under ThreadSanitizer.
#
#   scripts/tsan.sh                 # every test target of the sanitized build
#   scripts/tsan.sh LockingTests    # the named test targets only
#   scripts/tsan.sh --build-only    # the sanitized build alone (CI starts it early, beside swift test)
#
# The sanitized build is Package.swift with PB_SANITIZED_UNIT_TESTS set, which leaves out the test
# targets that have nothing for TSan to see: EndToEndTests runs the built binaries as child
# processes, which are not the sanitized test process; DifferentialTests, TraceImportTests,
# SimulationTests, LifecycleTests and ContractTableTests start no thread (virtual time, parsing and
# the contract table's text, on the test's own thread: checked by reading them; the live code of
# Simulation, LockedState, runs under the other modules' live tests). The sanitized build is most of
# this step, so a target left out is a module or a test target not compiled with TSan (the Lifecycle
# module goes with LifecycleTests). Only the test bundle is built (no executable is compiled
# sanitized), and the test targets come from that manifest (`swift package dump-package`), so a new
# module's tests are covered without editing this script. The suites in `single_threaded` below
# are skipped for the same reason (they took about 110 s of CI's 15 minutes sanitized). The
# unsynchronized control (UnsynchronizedControlTests) is skipped: it is a data race on purpose and
# TSan would (rightly) report it. A separate scratch path, with its own manifest
# cache, keeps the sanitized build from invalidating the normal debug build in .build/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PB_SANITIZED_UNIT_TESTS=1
swiftpm=(swift package --scratch-path .build-tsan --manifest-cache local)
build() { swift build --product PatternBenchPackageTests --sanitize=thread --scratch-path .build-tsan --manifest-cache local; }
if [ "${1:-}" = "--build-only" ]; then
  [ $# -eq 1 ] || { echo "usage: scripts/tsan.sh [--build-only | TEST_TARGET...]" >&2; exit 64; }
  build
  exit
fi

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <("${swiftpm[@]}" dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
for target in package["targets"]:
    if target["type"] == "test":
        print(target["name"])')
fi
[ ${#targets[@]} -gt 0 ] || { echo "tsan.sh: no test targets found" >&2; exit 1; }
filter=$(IFS='|'; echo "^(${targets[*]})\\.")
echo "tsan.sh: ${targets[*]}"

# Suites that start no thread (checked by reading them: no Thread, Dispatch or Task in their files
# but a single helper thread joined at once for its stack size). ClockScheduleRobustnessTests is
# the clock schedule's arithmetic (5 s sanitized).
single_threaded='(FastPathEquivalenceTests|TraceReaderStreamingTests|TraceTimeFastPathTests|ExponentialZigguratTests|ExactRoundingTests|PerfettoEncodingEquivalenceTests|ClockScheduleRobustnessTests)'
build
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
  swift test --skip-build --sanitize=thread --scratch-path .build-tsan --manifest-cache local \
    --filter "$filter" --skip UnsynchronizedControlTests --skip "$single_threaded"
