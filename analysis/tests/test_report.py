"""The run report: a self-contained HTML page checked in real headless Chromium, and a markdown summary."""

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import copy_folder, run_cli
from headless_chromium import Chromium, chromium_binary

GATE = {
    "verdict": "regression",
    "exit_code": 1,
    "summary_markdown": "1 regression\n\n| metric | baseline | now |\n|---|---|---|\n"
    "| throttle storm-slow frame-budget latency_p99_ms | 92 | 121 (+31%) |",
}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    base = tmp_path_factory.mktemp("report")
    folder = copy_folder("run", base)
    (folder / "gate.json").write_text(json.dumps(GATE))
    (folder / "gate-summary.md").write_text(GATE["summary_markdown"])
    result = run_cli("report", folder)
    assert result.returncode == 0, result.stderr
    return folder / "report"


def test_report_files(report):
    assert (report / "report.html").exists() and (report / "summary.md").exists()
    assert (report / "charts/throttle-frontier.svg").exists()


def test_html_is_self_contained(report):
    page = (report / "report.html").read_text()
    # Nothing is fetched: no external URL in any src/href, no scripts, no stylesheets by link.
    assert not re.search(r"""(?:src|href)\s*=\s*["'](?!data:|#)""", page)
    assert "<script" not in page and "<link" not in page and "@import" not in page
    images = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert len(images) == 7 and all(src.startswith("data:image/png;base64,") for src in images)
    # The report shows a timeline: the second around each scenario's worst moment.
    assert page.count("the second around the worst moment") >= 2


def test_markdown_summary(report):
    md = (report / "summary.md").read_text()
    assert "**Gate verdict: REGRESSION** (exit code 1)" in md
    assert "| throttle storm-slow frame-budget latency_p99_ms | 92 | 121 (+31%) |" in md
    assert "## What ran" in md and "| vm | AMD EPYC | 2 |" in md
    for workload in ("throttle", "atomics", "clock"):
        assert f"## {workload}" in md
    assert re.search(
        r"\| frame-budget \| 2 \| \*\*[\d.]+ \([\d.]+–[\d.]+\) / [\d.]+( \([\d.]+–[\d.]+\))?\*\* \|", md
    ), md
    assert "median (min–max) over n seeds" in md  # bursts: best p99 is bold; n and spread in every table
    probe = json.loads((report.parent / "atomics.json").read_text())["metadata"]["parameters"]["co_scheduling_probe"]
    assert f"co-scheduling probe: {probe['before']['verdict']} before" in md
    assert re.search(r"\*\*24 h, 67 negative\*\*", md)  # step-minus-1d: 7 + 60 over two clients
    assert "debug build" in md


def test_report_without_gate_has_no_verdict(tmp_path, fixtures):
    result = run_cli("report", fixtures / "shard-1", "-o", tmp_path / "r")
    assert result.returncode == 0, result.stderr
    assert "verdict" not in (tmp_path / "r/summary.md").read_text().lower()
    assert 'id="gate-verdict"' not in (tmp_path / "r/report.html").read_text()


def test_report_renders_in_headless_chromium(report):
    binary = chromium_binary()
    if binary is None:
        if os.environ.get("PB_REQUIRE_CHROMIUM"):
            pytest.fail("PB_REQUIRE_CHROMIUM is set but no chromium binary is on PATH")
        pytest.skip("chromium is not installed (apt-get install chromium); the browser check needs it")
    with Chromium(binary) as browser:
        page = browser.load_offline(report / "report.html")
        state = page.evaluate("""JSON.stringify({
            images: Array.from(document.images).map(i => ({ok: i.complete && i.naturalWidth > 0,
                                                              w: i.naturalWidth, shown: i.getBoundingClientRect().width})),
            headings: Array.from(document.querySelectorAll('h2')).map(h => h.textContent),
            verdict: (document.getElementById('gate-verdict') || {}).innerText || null,
            verdictColor: getComputedStyle(document.getElementById('gate-verdict')).backgroundColor,
            tables: document.querySelectorAll('table').length,
            width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})""")
        state = json.loads(state)
        shot = page.screenshot(report / "screenshot.png")
        top = page.screenshot(report / "screenshot-top.png", full_page=False)
        urls = page.requested_urls()
        failed = page.failed_requests()
    assert len(state["images"]) == 7 and all(i["ok"] and i["shown"] > 300 for i in state["images"]), state["images"]
    assert state["headings"][:3] == ["What ran", "Hosts", "Notes"]
    assert {"throttle", "atomics", "clock"} <= set(state["headings"])
    assert state["verdict"].startswith("Gate verdict: REGRESSION (exit code 1)")
    assert state["verdictColor"] == "rgb(207, 34, 46)"
    assert state["tables"] >= 6 and state["width"] <= 1280  # no horizontal scrolling
    assert all(u.startswith(("file:", "data:")) for u in urls), urls
    assert not failed, failed
    assert shot.read_bytes()[:4] == b"\x89PNG" and top.stat().st_size > 10_000
    keep = os.environ.get("PB_KEEP_SCREENSHOT")
    if keep:  # for a human to look at: PB_KEEP_SCREENSHOT=/tmp/shots pytest ...
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / "report-full.png")
        shutil.copy(top, Path(keep) / "report-top.png")


def test_live_run_reports_live_beside_sim(tmp_path, fixtures):
    result = run_cli("report", fixtures / "live", "-o", tmp_path / "r")
    assert result.returncode == 0, result.stderr
    md = (tmp_path / "r/summary.md").read_text()
    assert "live mode; bold" in md and "sim mode; bold" in md
    assert "live beside simulated" in md
    assert re.search(r"\| storm-slow \| frame-budget \| latency_p99_ms \(ms\) \| [\d.,]+ \| [\d.,]+ \| [\d.]+ \|", md)
    svg = (tmp_path / "r/charts/throttle-frontier.svg").read_text()
    assert 'id="series:storm-slow-frame-budget-live"' in svg and 'id="series:storm-slow-frame-budget-sim"' in svg


def test_real_gate_verdict_from_bench_gate(tmp_path, fixtures):
    """`gated` was checked by the real bench-gate (frame-budget detuned to --max-age-ms 100): a regression."""
    result = run_cli("report", fixtures / "gated", "-o", tmp_path / "r")
    assert result.returncode == 0, result.stderr
    md = (tmp_path / "r/summary.md").read_text()
    assert md.index("**Gate verdict: REGRESSION** (exit code 1)") < md.index("## What ran")
    assert "## PatternBench gate: REGRESSION" in md
    assert "| **FAIL** | `throttle.storm-slow.frame-budget-p99-le-signal-adaptive` |" in md
    page = (tmp_path / "r/report.html").read_text()
    assert "<strong>FAIL</strong>" in page
    assert "<code>throttle.storm-slow.frame-budget-p99-le-signal-adaptive</code>" in page
    assert "<h4>PatternBench gate: REGRESSION</h4>" in page
