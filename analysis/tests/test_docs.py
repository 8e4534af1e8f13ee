"""What docs/analysis.md tells an analyst to type works: the five pandas lines and the wrapper script."""

import os
import re
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "analysis.md"


def test_the_five_lines_of_pandas_run_on_a_real_results_folder(fixtures):
    block = re.search(r"## Start from five lines of pandas.*?```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    lines = [line for line in block.strip().splitlines() if line.strip()]
    assert len(lines) == 5
    code = block.replace("results/runs/<run_id>/throttle.csv", str(fixtures / "run" / "throttle.csv"))
    scope: dict = {}
    exec(compile(code, str(DOC), "exec"), scope)
    frontier = scope["frontier"]
    assert list(frontier.columns) == ["hitch_ms_per_s", "latency_p99_ms"]
    assert len(frontier) == 2 * 7  # two scenarios x seven policies


ENV = os.environ | {"PYTHON": sys.executable}  # the interpreter with the dependencies (a venv in CI)


def test_wrapper_script_runs_from_any_directory(tmp_path, fixtures):
    result = subprocess.run(
        [str(REPO / "scripts" / "pb-analysis"), "plot", str(fixtures / "shard-1"), "-o", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "throttle-frontier.svg").exists()
    result = subprocess.run([str(REPO / "scripts" / "pb-analysis"), "--help"], capture_output=True, text=True, env=ENV)
    assert result.returncode == 0 and all(c in result.stdout for c in ("plot", "report", "export", "merge"))


def test_missing_dependencies_give_one_line_not_a_traceback():
    """Without site-packages (-S) numpy, pandas and matplotlib are missing, as in Debian's bare python3."""
    result = subprocess.run(
        [sys.executable, "-S", "-m", "patternbench_analysis", "plot", "x"],
        cwd=REPO / "analysis",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'numpy' is missing" in lines[0] and "python3 -m venv" in lines[0], result.stderr


FAKE_SWIFT = """#!/usr/bin/env bash
# Stands in for `swift run -c release bench-throttle ...`: copies the committed run of that --max-age-ms.
while [ $# -gt 0 ]; do
  case "$1" in --max-age-ms) age=$2; shift ;; --output) out=$2; shift ;; esac; shift
done
case "$age" in 30) src=run ;; *) src=sweep-max-age-$age ;; esac
mkdir -p "$out" && cp "FIXTURES/$src/throttle.csv" "FIXTURES/$src/throttle.json" "$out/"
"""


def test_the_sweep_example_works_when_run_twice(tmp_path, fixtures):
    block = re.search(r"A sweep, for example.*?```sh\n(.*?)```", DOC.read_text(), re.S).group(1)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "swift").write_text(FAKE_SWIFT.replace("FIXTURES", str(fixtures)))
    (bin_dir / "swift").chmod(0o755)
    script = block.replace("scripts/pb-analysis", str(REPO / "scripts" / "pb-analysis"))
    env = ENV | {"PATH": f"{bin_dir}:{os.environ['PATH']}"}
    for attempt in (1, 2):
        result = subprocess.run(
            ["bash", "-euc", script], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env
        )
        assert result.returncode == 0, (attempt, result.stderr)
        assert (tmp_path / "sweep" / "charts" / "throttle-frontier.svg").exists()
