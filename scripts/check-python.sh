#!/usr/bin/env bash
# Lint, format and type checks of the Python analysis package (analysis/), with the configuration in
# analysis/pyproject.toml: `ruff check`, `ruff format --check` and `mypy`. Each one runs even when an
# earlier one found something, so one CI run lists every finding; any finding exits 1.
#
#   scripts/check-python.sh [VENV_BIN]   # VENV_BIN: the bin directory of a virtual environment with
#                                        # analysis/requirements-test.txt installed (default .venv-ci/bin)
#
# First a control (a check that cannot fail proves nothing): each tool must reject a scratch package
# holding one finding of its kind (an unused import, an unformatted line, a str assigned to an int),
# checked with the same configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.venv-ci/bin}"
bin="$(cd "$bin" 2>/dev/null && pwd)" || { echo "check-python: ${1:-.venv-ci/bin}: no such directory (give a venv's bin directory)" >&2; exit 2; }
for tool in ruff mypy; do
  [ -x "$bin/$tool" ] || { echo "check-python: $bin/$tool not found (pip install -r analysis/requirements-test.txt into that venv)" >&2; exit 2; }
done

# 1. The control: the same configuration over a scratch package with one known finding per tool.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp analysis/pyproject.toml "$scratch/"
mkdir "$scratch/patternbench_analysis"
printf 'import os\n\nanswer: int = 42\n' > "$scratch/patternbench_analysis/lint.py"
printf 'answer = {"a":1}\n' > "$scratch/patternbench_analysis/format.py"
printf 'answer: int = "forty-two"\n' > "$scratch/patternbench_analysis/types.py"
: > "$scratch/patternbench_analysis/__init__.py"
control() {  # control NAME COMMAND...: the command must fail on the scratch package
  local name="$1"; shift
  if (cd "$scratch" && "$@") >/dev/null 2>&1; then
    echo "check-python: $name accepted a package with a known finding: the check is broken" >&2
    exit 1
  fi
}
control "ruff check" "$bin/ruff" check --no-cache patternbench_analysis/lint.py
control "ruff format --check" "$bin/ruff" format --check --no-cache patternbench_analysis/format.py
control "mypy" "$bin/mypy" --no-incremental --cache-dir=/dev/null patternbench_analysis/types.py

# 2. The real package: every tool runs; the exit status says whether any found something.
status=0
cd analysis
echo "check-python: ruff check ($("$bin/ruff" --version))"
"$bin/ruff" check --no-cache . || status=1
echo "check-python: ruff format --check"
"$bin/ruff" format --check --no-cache --output-format concise . || status=1
echo "check-python: mypy ($("$bin/mypy" --version))"
"$bin/mypy" --cache-dir=/dev/null || status=1
if [ "$status" -ne 0 ]; then
  echo "check-python: findings above (fix them; ruff format formats in place)" >&2
else
  echo "check-python: ruff check, ruff format --check and mypy found nothing"
fi
exit "$status"
