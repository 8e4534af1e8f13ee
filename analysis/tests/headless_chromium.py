"""Drive a real headless Chromium over the DevTools protocol on a pipe (no extra dependencies).

`--remote-debugging-pipe` makes Chromium read NUL-terminated JSON commands from fd 3 and write
responses and events to fd 4. That is enough to load a page offline, record every request it
makes, evaluate JavaScript in it and take a full-page screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def chromium_binary() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Chromium:
    def __init__(self, binary: str, width: int = 1280, height: int = 900, timeout: float = 60.0):
        self.timeout = timeout
        self.width, self.height = width, height
        self.profile = tempfile.mkdtemp(prefix="pb-chromium-")
        cmd_read, self._cmd_write = os.pipe()
        self._resp_read, resp_write = os.pipe()

        def child_fds():  # Chromium expects the pipe ends at exactly fd 3 and 4
            a, b = os.dup(cmd_read), os.dup(resp_write)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--remote-debugging-pipe",
                f"--user-data-dir={self.profile}",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-sync",
                "--disable-component-update",
                "--mute-audio",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=child_fds,
            close_fds=False,
        )
        os.close(cmd_read)
        os.close(resp_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []

    # -- protocol

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self._resp_read], [], [], remaining)
            if ready:
                chunk = os.read(self._resp_read, 1 << 20)
                if not chunk:
                    raise RuntimeError(
                        f"Chromium exited: {self.process.stderr.read().decode(errors='replace')[-2000:]}"
                    )
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._cmd_write, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str | None = None) -> dict:
        for event in self.events:
            if event.get("method") == method and (session is None or event.get("sessionId") == session):
                return event
        deadline = time.monotonic() + self.timeout
        while True:
            event = self._read_message(deadline)
            self.events.append(event)
            if event.get("method") == method and (session is None or event.get("sessionId") == session):
                return event

    # -- what the tests use

    def load_offline(self, path: Path) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            self.send(f"{domain}.enable", session=session)
        self.send(
            "Network.emulateNetworkConditions",
            {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
            session,
        )
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False},
            session,
        )
        self.send("Page.navigate", {"url": path.resolve().as_uri()}, session)
        self.wait_for("Page.loadEventFired", session)
        return Page(self, session)

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._cmd_write, self._resp_read):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session

    def evaluate(self, expression: str):
        result = self.browser.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, self.session
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"JavaScript failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def requested_urls(self) -> list[str]:
        return [
            e["params"]["request"]["url"]
            for e in self.browser.events
            if e.get("method") == "Network.requestWillBeSent" and e.get("sessionId") == self.session
        ]

    def failed_requests(self) -> list[dict]:
        return [
            e["params"]
            for e in self.browser.events
            if e.get("method") == "Network.loadingFailed" and e.get("sessionId") == self.session
        ]

    def screenshot(self, path: Path, full_page: bool = True) -> Path:
        params: dict = {"format": "png"}
        if full_page:
            metrics = self.browser.send("Page.getLayoutMetrics", session=self.session)
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            params |= {
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
            }
        data = self.browser.send("Page.captureScreenshot", params, self.session)["data"]
        path.write_bytes(base64.b64decode(data))
        return path
