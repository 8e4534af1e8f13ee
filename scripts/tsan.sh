#!/usr/bin/env bash
# Runs the Locking tests under ThreadSanitizer.
#
# The unsynchronized control (UnsynchronizedControlTests) is skipped: it is a data race on purpose
# and TSan would (rightly) report it. A separate scratch path keeps the sanitized build from
# invalidating the normal debug build in .build/.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests --sanitize=thread --scratch-path .build-tsan
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
  swift test --skip-build --sanitize=thread --scratch-path .build-tsan \
    --filter LockingTests --skip UnsynchronizedControlTests
