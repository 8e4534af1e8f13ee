"""Every command, every bad path: one line on stderr, exit 2, never a traceback (outputs.py).

Each command is driven with each bad path it can be given: an output that is in the way (a file
where a folder goes, a folder where a file goes), an output under a regular file (cannot be
created, even as root), an output that cannot be written (`/dev/full`: the disk is full), and a
missing input. The control: the same command with good paths exits 0, so the cases fail on the
path alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli, small_run_set

INPUT = FIXTURES / "shard-1"


def folder_commands(out: str, db: Path, folder: Path = INPUT) -> dict[str, list]:
    """Commands whose -o is a folder (history plot's too; merge's must be new)."""
    return {
        "plot": ["plot", folder, "-o", out, "--quiet"],
        "report": ["report", folder, "-o", out, "--quiet"],
        # Two different runs: a run compared with itself is refused.
        "compare": ["compare", folder, FIXTURES / "shard-2" if folder == INPUT else folder, "-o", out],
        "merge": ["merge", folder, "-o", out, "--allow-missing-shards"],
        "history-plot": ["history", "plot", "--db", db, "-o", out],
    }


def file_commands(out: str, folder: Path = INPUT) -> dict[str, list]:
    """Commands whose -o is a file."""
    return {
        "export": ["export", "-f", "openmetrics", folder, "-o", out],
        "runs": ["runs", folder, "-o", out],
    }


def assert_path_error(result, *fragments: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pb-analysis "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


@pytest.fixture
def places(tmp_path):
    existing = tmp_path / "existing.txt"
    existing.write_text("not mine to replace\n")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    return tmp_path, existing, folder


FOLDER_NAMES = list(folder_commands("x", Path("x")))
FILE_NAMES = list(file_commands("x"))


@pytest.mark.parametrize("command", FOLDER_NAMES)
def test_output_folder_that_is_a_file_is_refused(places, command):
    tmp, existing, _ = places
    argv = folder_commands(str(existing), tmp / "h.sqlite")[command]
    assert_path_error(run_cli(*argv), str(existing), "not a folder")
    assert existing.read_text() == "not mine to replace\n"


@pytest.mark.parametrize("command", FOLDER_NAMES)
def test_output_folder_under_a_file_is_refused(places, command):
    tmp, existing, _ = places
    argv = folder_commands(str(existing / "charts"), tmp / "h.sqlite")[command]
    assert_path_error(run_cli(*argv), str(existing))


@pytest.mark.parametrize("command", FILE_NAMES)
def test_output_file_that_is_a_folder_is_refused(places, command):
    _, _, folder = places
    assert_path_error(run_cli(*file_commands(str(folder))[command]), str(folder), "is a folder")


@pytest.mark.parametrize("command", FILE_NAMES)
def test_output_file_in_a_missing_folder_is_refused(places, command):
    tmp, existing, _ = places
    for out in (tmp / "no-such-folder" / "out.txt", existing / "out.txt"):
        assert_path_error(run_cli(*file_commands(str(out))[command]), str(out))


@pytest.mark.parametrize("command", FILE_NAMES)
def test_output_file_that_cannot_be_written_is_refused(command):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    assert_path_error(run_cli(*file_commands("/dev/full")[command]), "/dev/full", "cannot write")
    assert Path("/dev/full").is_char_device()  # written through, never replaced


# history plot and changes read a store, not a folder: their input is --db, tested below.
@pytest.mark.parametrize(
    "command",
    [n for n in FOLDER_NAMES if n != "history-plot"] + FILE_NAMES + ["history-ingest"],
)
def test_missing_input_is_refused(places, command):
    tmp, _, _ = places
    missing = tmp / "no-such-results"
    commands = {
        **folder_commands(str(tmp / "out"), tmp / "h.sqlite", missing),
        **file_commands(str(tmp / "out.txt"), missing),
        "history-ingest": ["history", "ingest", missing, "--db", tmp / "h.sqlite"],
    }
    assert_path_error(run_cli(*commands[command]), str(missing), "does not exist")
    assert not (tmp / "h.sqlite").exists() and not (tmp / "out").exists()  # nothing made before the inputs were read


@pytest.mark.parametrize("command", ["ingest", "changes", "plot"])
def test_history_store_that_cannot_be_created_is_refused(places, command):
    _, existing, _ = places
    db = existing / "history.sqlite"
    argv = ["history", command, *([INPUT] if command == "ingest" else []), "--db", db]
    assert_path_error(run_cli(*argv), str(db))


def test_control_good_paths_exit_0(places):
    tmp, _, _ = places
    db = tmp / "h.sqlite"
    assert run_cli("history", "ingest", INPUT, "--db", db).returncode == 0
    for name, argv in {
        **folder_commands(str(tmp / "out-folder"), db),
        **file_commands(str(tmp / "out.txt")),
    }.items():
        if name == "merge":
            argv = [*argv[:3], tmp / "merged", *argv[4:]]
        result = run_cli(*argv)
        assert result.returncode == 0, (name, result.stderr)
    # a regular output file is overwritten (as a shell's > does), not refused
    assert run_cli("runs", INPUT, "-o", tmp / "out.txt").returncode == 0


@pytest.mark.parametrize("command", ["plot", "report"])
def test_plot_and_report_say_what_they_draw_unless_quiet(tmp_path, command):
    folder = small_run_set(tmp_path / "in")  # three workloads and a timeline, drawn in seconds
    loud = run_cli(command, folder, "-o", tmp_path / "loud")
    assert loud.returncode == 0, loud.stderr
    lines = loud.stderr.strip().splitlines()
    for index, workload in enumerate(["throttle", "atomics", "clock"], start=1):
        assert any(line.startswith(f"{command}: drawing {workload} ({index}/3 workloads") for line in lines), lines
    assert all(line.endswith(" s)") for line in lines if line.startswith(f"{command}: ")), lines
    quiet = run_cli(command, folder, "-o", tmp_path / "quiet", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
