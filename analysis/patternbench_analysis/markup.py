"""The page pieces the report and the comparison both write: table cells escaped for markdown and
HTML, and the one stylesheet.

A module of its own so that `report` (which embeds a comparison) and `compare` (which writes its own
page and summary) both import it, and neither imports the other."""

from __future__ import annotations

import html
import re
from collections.abc import Set as AbstractSet


def md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(header: list[str], rows: list[list[str]], bold: AbstractSet[tuple[int, int]] = frozenset()) -> str:
    lines = ["| " + " | ".join(md_escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    for i, row in enumerate(rows):
        cells = [f"**{md_escape(c)}**" if (i, j) in bold else md_escape(c) for j, c in enumerate(row)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


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
