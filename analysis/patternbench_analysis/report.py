"""`report`: one self-contained HTML page (charts embedded, no network) plus a markdown summary.

The markdown is meant for a CI job page (e.g. `$GITHUB_STEP_SUMMARY`): what ran, on what host,
the headline numbers per workload and the gate verdict when `gate.json` is present.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Set as AbstractSet
from pathlib import Path

from .charts.common import Chart
from .headlines import atomics_probe, tables_for
from .plot import render_all
from .results import ResultsFolder, WorkloadRun, combined, workloads

MAX_TIMELINES = None  # every scenario's timeline: nothing is dropped
VERDICT_STYLE = {"pass": ("#1a7f37", "PASS"), "regression": ("#cf222e", "REGRESSION"), "error": ("#9a6700", "ERROR")}


def _gib(value) -> str:
    return f"{value / 2**30:.1f} GiB" if isinstance(value, (int, float)) else "?"


def host_rows(folders: list[ResultsFolder]) -> list[list[str]]:
    """One row per distinct (host, toolchain, build, commit) among every source run."""
    rows, seen = [], set()
    for folder in folders:
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


def run_rows(folders: list[ResultsFolder]) -> list[list[str]]:
    rows = []
    for workload in workloads(folders):
        for run in combined(folders, workload):
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


def notes_of(folders: list[ResultsFolder]) -> list[str]:
    notes = []
    for folder in folders:
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


def gate_of(folders: list[ResultsFolder]) -> tuple[dict, str | None] | None:
    for folder in folders:
        if folder.gate is not None:
            return folder.gate, folder.gate_summary
    return None


# ---------------------------------------------------------------- markdown


def md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(header: list[str], rows: list[list[str]], bold: AbstractSet[tuple[int, int]] = frozenset()) -> str:
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    for i, row in enumerate(rows):
        cells = [f"**{md_escape(c)}**" if (i, j) in bold else md_escape(c) for j, c in enumerate(row)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def markdown(folders: list[ResultsFolder], charts: list[Chart], chart_dir: Path, out: Path, comparison=None) -> str:
    parts = ["# PatternBench run report", ""]
    gate = gate_of(folders)
    if gate:
        verdict, summary = gate
        label = VERDICT_STYLE[verdict["verdict"]][1]
        parts += [f"**Gate verdict: {label}** (exit code {verdict.get('exit_code', '?')})", ""]
        text = verdict.get("summary_markdown") or summary
        if text:
            parts += [text.strip(), ""]
    if comparison is not None:
        from .compare import to_markdown

        parts += [to_markdown(comparison, heading="##"), ""]
    parts += [
        "## What ran",
        "",
        md_table(RUN_HEADER, run_rows(folders)),
        "",
        "## Hosts",
        "",
        md_table(HOST_HEADER, host_rows(folders)),
        "",
    ]
    notes = notes_of(folders)
    if notes:
        parts += ["## Notes", ""] + [f"- ⚠️ {md_escape(n)}" for n in notes] + [""]
    for workload in workloads(folders):
        runs = combined(folders, workload)
        parts += [f"## {workload}", ""]
        if workload == "atomics":
            parts += [f"_{atomics_probe(runs)}_", ""]
        for table in tables_for(workload, runs):
            parts += [f"{table.caption}:", "", md_table(table.header, table.rows, table.bold), ""]
    if charts:
        parts += ["## Charts", ""] + [f"- {c.title}: `{c.png.relative_to(out).as_posix()}`" for c in charts] + [""]
    return "\n".join(parts)


# ---------------------------------------------------------------- HTML

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:1200px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:26px;margin:0 0 4px} h2{font-size:20px;margin:32px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.sub{color:#59636e;margin:0 0 16px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa} td.num{text-align:right;font-variant-numeric:tabular-nums}
p.caption{color:#59636e;margin:12px 0 0;font-size:13px}
.verdict table{background:#fff;color:#1f2328;font-size:13px;font-weight:400}
.verdict h3,.verdict h4,.verdict h5{margin:10px 0 4px;font-size:15px}.verdict p{font-size:14px;font-weight:400;margin:6px 0}
.verdict code{background:rgba(255,255,255,.85);color:#1f2328;padding:0 3px;border-radius:3px}
.verdict{padding:12px 16px;border-radius:6px;color:#fff;font-size:18px;font-weight:600;margin:12px 0}
.verdict pre{background:rgba(255,255,255,.92);color:#1f2328;font-size:12px;padding:8px;border-radius:4px;white-space:pre-wrap;font-weight:400}
.notes{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:8px 16px}
.probe{font-style:italic;color:#59636e}
figure{margin:16px 0} figure img{max-width:100%;border:1px solid #d0d7de}
figcaption{color:#59636e;font-size:13px}
footer{color:#59636e;font-size:12px;margin-top:32px}
"""


NUMERIC = re.compile(r"^[-+−]?[\d,.]+(e[-+]?\d+)?( ?[%a-zA-Zµ/]+)?( / [-+]?[\d,.]+(e[-+]?\d+)?)?$|^[–∞]$")


def h(text) -> str:
    return html.escape(str(text), quote=True)


def html_table(
    header: list[str],
    rows: list[list[str]],
    caption: str | None = None,
    bold: AbstractSet[tuple[int, int]] = frozenset(),
) -> str:
    out = [f'<p class="caption">{h(caption)}</p>' if caption else "", "<table>"]
    out.append("<thead><tr>" + "".join(f"<th>{h(c)}</th>" for c in header) + "</tr></thead><tbody>")
    for i, row in enumerate(rows):
        cells = []
        for j, c in enumerate(row):
            text = f"<strong>{h(c)}</strong>" if (i, j) in bold else h(c)
            opening = '<td class="num">' if j > 0 and NUMERIC.match(str(c)) else "<td>"
            cells.append(f"{opening}{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


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


def html_page(folders: list[ResultsFolder], charts: list[Chart], comparison=None) -> str:
    names = ", ".join(workloads(folders))
    body = [
        "<h1>PatternBench run report</h1>",
        f'<p class="sub">{h(names)} — from {h(", ".join(str(f.path) for f in folders))}</p>',
    ]
    gate = gate_of(folders)
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
        from .compare import to_html_section

        body.append(to_html_section(comparison))
    body += [
        "<h2>What ran</h2>",
        html_table(RUN_HEADER, run_rows(folders)),
        "<h2>Hosts</h2>",
        html_table(HOST_HEADER, host_rows(folders)),
    ]
    notes = notes_of(folders)
    if notes:
        body.append(
            '<h2>Notes</h2><div class="notes"><ul>' + "".join(f"<li>{h(n)}</li>" for n in notes) + "</ul></div>"
        )
    for workload in workloads(folders):
        runs: list[WorkloadRun] = combined(folders, workload)
        body.append(f'<h2 id="workload-{h(workload)}">{h(workload)}</h2>')
        if workload == "atomics":
            body.append(f'<p class="probe">{h(atomics_probe(runs))}</p>')
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
    folders: list[ResultsFolder], out: Path, comparison=None, progress=lambda message: None
) -> tuple[Path, Path]:
    """Charts first (one `progress` line per workload), then the page and the summary."""
    out.mkdir(parents=True, exist_ok=True)
    chart_dir = out / "charts"
    charts = render_all(folders, chart_dir, max_timelines=MAX_TIMELINES, progress=progress)
    progress(f"writing report.html and summary.md with {len(charts)} charts")
    page, summary = out / "report.html", out / "summary.md"
    page.write_text(html_page(folders, charts, comparison), encoding="utf-8")
    summary.write_text(markdown(folders, charts, chart_dir, out, comparison), encoding="utf-8")
    return page, summary
