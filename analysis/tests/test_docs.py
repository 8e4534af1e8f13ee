"""What docs/analysis.md tells an analyst to type works: the five pandas lines and the wrapper script."""

import re
import subprocess
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "analysis.md"


def test_the_five_lines_of_pandas_run_on_a_real_results_folder(fixtures):
    block = re.search(r"## Start from five lines of pandas.*?```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    lines = [l for l in block.strip().splitlines() if l.strip()]
    assert len(lines) == 5
    code = block.replace("results/runs/<run_id>/throttle.csv", str(fixtures / "run" / "throttle.csv"))
    scope: dict = {}
    exec(compile(code, str(DOC), "exec"), scope)
    frontier = scope["frontier"]
    assert list(frontier.columns) == ["hitch_ms_per_s", "latency_p99_ms"]
    assert len(frontier) == 2 * 7  # two scenarios x seven policies


def test_wrapper_script_runs_from_any_directory(tmp_path, fixtures):
    result = subprocess.run([str(REPO / "scripts" / "pb-analysis"), "plot", str(fixtures / "shard-1"), "-o", "out"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "throttle-frontier.svg").exists()
    result = subprocess.run([str(REPO / "scripts" / "pb-analysis"), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and all(c in result.stdout for c in ("plot", "report", "export", "merge"))
