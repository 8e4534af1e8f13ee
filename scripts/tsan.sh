#!/usr/bin/env bash
# Runs the unit tests of every module that starts threads or processes under ThreadSanitizer.
#
#   scripts/tsan.sh                 # every test target but the end-to-end, differential and trace-import ones
#   scripts/tsan.sh LockingTests    # the named test targets only
#
# The test targets come from Package.swift (`swift package dump-package`), so a new module's tests
# are covered without editing this script. EndToEndTests is left out: it runs the built binaries as
# child processes, which are not the sanitized test process. DifferentialTests and TraceImportTests
# are left out too, and the suites in `single_threaded` below skipped: they run virtual-time
# simulations, statistics or file parsing on the test's own thread only (nothing for TSan to see),
# and sanitized they took about 110 s of CI's 15 minutes. The unsynchronized control
# (UnsynchronizedControlTests) is skipped: it is a data race on purpose and TSan would (rightly)
# report it. A separate scratch path keeps the sanitized build from invalidating the normal debug
# build in .build/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(swift package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
for target in package["targets"]:
    if target["type"] == "test" and target["name"] not in ("EndToEndTests", "DifferentialTests", "TraceImportTests"):
        print(target["name"])')
fi
[ ${#targets[@]} -gt 0 ] || { echo "tsan.sh: no test targets found" >&2; exit 1; }
filter=$(IFS='|'; echo "^(${targets[*]})\\.")
echo "tsan.sh: ${targets[*]}"

# Suites that start no thread (checked by reading them: no Thread, Dispatch or Task in their files
# but a single helper thread joined at once for its stack size).
single_threaded='(FastPathEquivalenceTests|TraceReaderStreamingTests|TraceTimeFastPathTests|ExponentialZigguratTests|ExactRoundingTests|PerfettoEncodingEquivalenceTests)'
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
  swift test --skip-build --sanitize=thread --scratch-path .build-tsan \
    --filter "$filter" --skip UnsynchronizedControlTests --skip "$single_threaded"
