"""`report`: one self-contained HTML page (charts embedded, no network) plus a markdown summary.

The markdown is meant for a CI job page (e.g. `$GITHUB_STEP_SUMMARY`): what ran, on what host,
the headline numbers per workload and the gate verdict when `gate.json` is present.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from .charts.common import Chart
from .compare import to_html_section, to_markdown
from .markup import CSS, h, html_table, md_escape, md_table
from .plot import render_all
from .results import ResultsFolder
from .run_set import RunSet
from .view_registry import tables_for, view_for

MAX_TIMELINES = None  # every scenario's timeline: nothing is dropped
VERDICT_STYLE = {"pass": ("#1a7f37", "PASS"), "regression": ("#cf222e", "REGRESSION"), "error": ("#9a6700", "ERROR")}


def _gib(value) -> str:
    return f"{value / 2**30:.1f} GiB" if isinstance(value, (int, float)) else "?"


def host_rows(run_set: RunSet) -> list[list[str]]:
    """One row per distinct (host, toolchain, build, commit) among every source run."""
    rows, seen = [], set()
    for folder in run_set.folders:
        for run in folder.runs.values():
            meta = run.document.get("metadata", {})
            merged = meta.get("parameters", {}).get("merged_from")
            if isinstance(merged, list) and merged:
                sources = [(s.get("host_info", {}), s) for s in merged]
            else:
                sources = [(meta.get("host", {}), meta)]
            for host, build in sources:
                facts = (
                    build.get("swift_version", "?"),
                    build.get("build_configuration", "?"),
                    build.get("git_commit"),
                )
                key = (host.get("hostname"), *facts)
                if key in seen:
                    continue
                seen.add(key)
                rows.append(
                    [
                        str(host.get("hostname", "?")),
                        str(host.get("cpu_model", "?")),
                        str(host.get("logical_cores", "?")),
                        _gib(host.get("memory_bytes")),
                        str(host.get("kernel", "?")),
                        str(host.get("os", "?")),
                        f"{facts[0]} {facts[1]}",
                        str(facts[2] or "–")[:12],
                    ]
                )
    return rows


HOST_HEADER = ["host", "CPU", "cores", "memory", "kernel", "OS", "Swift / build", "commit"]


def run_rows(run_set: RunSet) -> list[list[str]]:
    rows = []
    for workload in run_set.workloads:
        for run in run_set.runs(workload):
            for source in run.sources():
                t = run.table[run.table["run_id"] == source["run_id"]]
                modes = ", ".join(sorted(t["mode"].unique())) or "–"
                shard = source.get("parameters", {}).get("shard")
                rows.append(
                    [
                        workload,
                        str(source["run_id"]),
                        str(source.get("created_utc", "?")),
                        str(source.get("host", "?")),
                        modes,
                        str(t["scenario"].nunique()),
                        str(t["variant"].nunique()),
                        str(len(t)),
                        str(shard) if shard else "–",
                    ]
                )
    return rows


RUN_HEADER = ["workload", "run id", "created (UTC)", "host", "mode", "scenarios", "variants", "rows", "shard"]


def notes_of(run_set: RunSet) -> list[str]:
    notes = []
    for folder in run_set.folders:
        for run in folder.runs.values():
            for note in run.notes:
                note = f"{run.workload}: {note}"
                if note not in notes:
                    notes.append(note)
            if run.document.get("metadata", {}).get("build_configuration") == "debug":
                warning = f"{run.workload}: measured from a debug build; timings are not representative"
                if warning not in notes and not any("debug build" in n for n in run.notes):
                    notes.append(warning)
    return notes


def gate_of(run_set: RunSet) -> tuple[dict, str | None] | None:
    for folder in run_set.folders:
        if folder.gate is not None:
            return folder.gate, folder.gate_summary
    return None


# ---------------------------------------------------------------- markdown


def markdown(run_set: RunSet, charts: list[Chart], chart_dir: Path, out: Path, comparison=None) -> str:
    parts = ["# PatternBench run report", ""]
    gate = gate_of(run_set)
    if gate:
        verdict, summary = gate
        label = VERDICT_STYLE[verdict["verdict"]][1]
        parts += [f"**Gate verdict: {label}** (exit code {verdict.get('exit_code', '?')})", ""]
        text = verdict.get("summary_markdown") or summary
        if text:
            parts += [text.strip(), ""]
    if comparison is not None:
        parts += [to_markdown(comparison, heading="##"), ""]
    parts += [
        "## What ran",
        "",
        md_table(RUN_HEADER, run_rows(run_set)),
        "",
        "## Hosts",
        "",
        md_table(HOST_HEADER, host_rows(run_set)),
        "",
    ]
    notes = notes_of(run_set)
    if notes:
        parts += ["## Notes", ""] + [f"- ⚠️ {md_escape(n)}" for n in notes] + [""]
    for workload in run_set.workloads:
        runs = run_set.runs(workload)
        parts += [f"## {workload}", ""]
        view = view_for(workload)
        if view is not None and view.probe is not None:
            parts += [f"_{view.probe(runs)}_", ""]
        for table in tables_for(workload, runs):
            parts += [f"{table.caption}:", "", md_table(table.header, table.rows, table.bold), ""]
    if charts:
        parts += ["## Charts", ""] + [f"- {c.title}: `{c.png.relative_to(out).as_posix()}`" for c in charts] + [""]
    return "\n".join(parts)


# ---------------------------------------------------------------- HTML


def inline_markdown(text: str) -> str:
    """Escapes, then renders **bold** and `code` (what the gate's summary uses)."""
    out = h(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", out)


def markdown_to_html(text: str) -> str:
    """Just enough markdown for a gate summary: headings, pipe tables, paragraphs, bold and code."""
    out: list[str] = []
    table: list[str] = []

    def flush():
        if table:
            rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table]
            body = [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]
            cells = "".join(f"<th>{inline_markdown(c)}</th>" for c in rows[0])
            lines = "".join("<tr>" + "".join(f"<td>{inline_markdown(c)}</td>" for c in r) + "</tr>" for r in body)
            out.append(f"<table><thead><tr>{cells}</tr></thead><tbody>{lines}</tbody></table>")
            table.clear()

    for line in text.strip().splitlines():
        stripped = line.strip()
        if stripped.startswith("|"):
            table.append(stripped)
            continue
        flush()
        heading = re.match(r"^(#{1,6})\s+(.*)$", stripped)
        if heading:
            level = min(6, len(heading.group(1)) + 2)
            out.append(f"<h{level}>{inline_markdown(heading.group(2))}</h{level}>")
        elif stripped:
            out.append(f"<p>{inline_markdown(stripped)}</p>")
    flush()
    return "".join(out)


def embed(chart: Chart) -> str:
    data = base64.b64encode(chart.png.read_bytes()).decode("ascii")
    return (
        f'<figure id="chart-{h(chart.name)}"><img alt="{h(chart.title)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{h(chart.title)} (SVG beside it: {h(chart.svg.name)})</figcaption></figure>"
    )


def html_page(run_set: RunSet, charts: list[Chart], comparison=None) -> str:
    names = ", ".join(run_set.workloads)
    body = [
        "<h1>PatternBench run report</h1>",
        f'<p class="sub">{h(names)} — from {h(", ".join(str(f.path) for f in run_set.folders))}</p>',
    ]
    gate = gate_of(run_set)
    if gate:
        verdict, summary = gate
        color, label = VERDICT_STYLE[verdict["verdict"]]
        text = verdict.get("summary_markdown") or summary or ""
        body.append(
            f'<div class="verdict" id="gate-verdict" style="background:{color}">Gate verdict: {label} '
            f"(exit code {h(verdict.get('exit_code', '?'))})"
            + (markdown_to_html(text) if text.strip() else "")
            + "</div>"
        )
    if comparison is not None:
        body.append(to_html_section(comparison))
    body += [
        "<h2>What ran</h2>",
        html_table(RUN_HEADER, run_rows(run_set)),
        "<h2>Hosts</h2>",
        html_table(HOST_HEADER, host_rows(run_set)),
    ]
    notes = notes_of(run_set)
    if notes:
        body.append(
            '<h2>Notes</h2><div class="notes"><ul>' + "".join(f"<li>{h(n)}</li>" for n in notes) + "</ul></div>"
        )
    for workload in run_set.workloads:
        runs = run_set.runs(workload)
        body.append(f'<h2 id="workload-{h(workload)}">{h(workload)}</h2>')
        view = view_for(workload)
        if view is not None and view.probe is not None:
            body.append(f'<p class="probe">{h(view.probe(runs))}</p>')
        for table in tables_for(workload, runs):
            body.append(html_table(table.header, table.rows, table.caption, table.bold))
        for chart in (c for c in charts if c.workload == workload):
            body.append(embed(chart))
    body.append(
        "<footer>Generated by patternbench_analysis from results schema version 1. "
        "Every number above is in the folder's CSV; start from <code>pandas.read_csv</code>.</footer>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>PatternBench report: {h(names)}</title><style>{CSS}</style></head>"
        f"<body><main>{''.join(body)}</main></body></html>\n"
    )


def write_report(
    folders: RunSet | list[ResultsFolder], out: Path, comparison=None, progress=lambda message: None
) -> tuple[Path, Path]:
    """Charts first (one `progress` line per workload), then the page and the summary, all from one
    `RunSet`: the folders are grouped by workload once and every step reads that."""
    run_set = RunSet.of(folders)
    out.mkdir(parents=True, exist_ok=True)
    chart_dir = out / "charts"
    charts = render_all(run_set, chart_dir, max_timelines=MAX_TIMELINES, progress=progress)
    progress(f"writing report.html and summary.md with {len(charts)} charts")
    page, summary = out / "report.html", out / "summary.md"
    page.write_text(html_page(run_set, charts, comparison), encoding="utf-8")
    summary.write_text(markdown(run_set, charts, chart_dir, out, comparison), encoding="utf-8")
    return page, summary
