#!/usr/bin/env bash
# Runs what CI runs, on this machine: every step of .ci/run (format, warning-free build, swift test,
# pytest, the scaffold, Examples/, docs, ThreadSanitizer, ruff and mypy) without installing a system
# package (the Python steps make their own .venv-ci). Tests that need a Debian package this machine
# lacks skip, naming it (CI, which installs them all, fails such a test instead); the packages are
# listed first. Exit 1 when a step failed; the summary at the end lists each with its time. Takes
# as long as CI (about 15 min on 2 cores).
set -euo pipefail
[ $# -eq 0 ] || { echo "usage: scripts/ci-local.sh (no arguments)" >&2; exit 64; }
exec "$(dirname "$0")/../.ci/run" --local
