"""Starting the real consumers of our outputs (promtool, Pushgateway, node_exporter, InfluxDB,
PostgreSQL) on loopback for a test, bounded in time and always stopped.

A missing tool skips its test with the reason, unless PB_REQUIRE_REAL_TOOLS=1 (CI sets it), which
turns the skip into a failure: CI must never pass because a tool was not installed.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

REQUIRE_ENV = "PB_REQUIRE_REAL_TOOLS"


def require(executable: str, package: str) -> str:
    """The executable's path, or a skip (a failure under PB_REQUIRE_REAL_TOOLS=1) naming the package."""
    for candidate in (executable, f"/usr/sbin/{executable}", f"/usr/lib/postgresql/15/bin/{executable}"):
        path = shutil.which(candidate) or (
            candidate if os.path.isabs(candidate) and os.access(candidate, os.X_OK) else None
        )
        if path:
            return path
    message = f"{executable} not found: install the Debian package '{package}' (apt-get install {package})"
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{message}; {REQUIRE_ENV}=1 makes this a failure")
    pytest.skip(message)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, data: bytes | None = None, timeout: float = 10.0) -> tuple[int, str]:
    assert url.startswith("http://127.0.0.1:"), url  # loopback only
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


@contextmanager
def server(argv: list[str], ready_url: str, log: Path, timeout: float = 20.0, env: dict | None = None):
    """Runs a server until the block ends; waits (bounded) until `ready_url` answers."""
    with log.open("wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise AssertionError(f"{argv[0]} exited with {process.returncode}: {log.read_text()[-2000:]}")
            try:
                status, _ = http("GET", ready_url, timeout=1.0)
                if status < 500:
                    break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{argv[0]} did not answer {ready_url} within {timeout:.0f} s: {log.read_text()[-2000:]}"
                )
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def postgres_server():
    """A throwaway PostgreSQL cluster (initdb, trust auth) on 127.0.0.1:PORT; yields its URL.

    Run as the `postgres` user when we are root (initdb refuses root), stopped and removed after."""
    import glob
    import tempfile

    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True)
    initdb = next((f"{b}/initdb" for b in bins if os.access(f"{b}/initdb", os.X_OK)), None) or shutil.which("initdb")
    if not initdb:
        require("initdb", "postgresql")
    pg_ctl = str(Path(initdb).with_name("pg_ctl"))
    root = Path(tempfile.mkdtemp(prefix="pb-postgres-"))
    data, port = root / "data", free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if not runuser:
            require("runuser", "util-linux")
        as_user = [runuser, "-u", "postgres", "--"]
        shutil.chown(root, "postgres", "postgres")
    try:
        subprocess.run(
            [*as_user, initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        options = f"-p {port} -c listen_addresses=127.0.0.1 -k {root} -c fsync=off"
        started = subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "-t", "60", "start"],
            capture_output=True,
            text=True,
            timeout=90,
        )
        assert started.returncode == 0, started.stdout + started.stderr + (root / "log").read_text()
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                [*as_user, pg_ctl, "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop"],
                capture_output=True,
                timeout=90,
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
