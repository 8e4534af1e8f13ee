"""Headline tables: the plain tables the report renders to HTML and markdown, and their number formats.

Each workload's own tables live in its view (views/<workload>.py); here are the pieces they share,
the generic summary of a workload without tables of its own, and the live-beside-simulated table
every workload gets."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from .results import WorkloadRun


@dataclass
class Table:
    caption: str
    header: list[str]
    rows: list[list[str]]
    bold: set[tuple[int, int]] = field(default_factory=set)  # (row, column) cells to emphasise


def fmt(value: float, digits: int = 3) -> str:
    if value is None or pd.isna(value):
        return "–"
    if value in (float("inf"), float("-inf")):
        return "∞" if value > 0 else "−∞"
    if value != 0 and (abs(value) >= 1e9 or abs(value) < 1e-3):
        return f"{value:.{digits}g}"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.{digits}g}"


def spread(values: pd.Series) -> str:
    """`median (min–max)` of a cell's repetitions; just the value when there is one."""
    values = values.dropna()
    if values.empty:
        return "–"
    if len(values) == 1 or values.min() == values.max():
        return fmt(values.median())
    return f"{fmt(values.median())} ({fmt(values.min())}–{fmt(values.max())})"


def counts_text(counts) -> str:
    counts = sorted({int(c) for c in counts})
    if not counts:
        return "0"
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"


def generic_tables(runs: list[WorkloadRun]) -> list[Table]:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    grouped = table.groupby(["metric", "unit"])["value"]
    summary = pd.DataFrame(
        {
            "count": grouped.count(),
            "median": grouped.median(),
            "q25": grouped.quantile(0.25),
            "q75": grouped.quantile(0.75),
            "min": grouped.min(),
            "max": grouped.max(),
        }
    )
    rows = [
        [
            metric,
            unit,
            str(int(r["count"])),
            fmt(r["median"]),
            f"{fmt(r['q25'])}–{fmt(r['q75'])}",
            fmt(r["min"]),
            fmt(r["max"]),
        ]
        for (metric, unit), r in summary.head(30).iterrows()
    ]
    caption = "every metric over all rows (a workload this report has no dedicated view for)"
    if len(summary) > 30:
        caption += f"; first 30 of {len(summary)} metrics, the rest are in the CSV"
    return [Table(caption=caption, header=["metric", "unit", "n (rows)", "median", "IQR", "min", "max"], rows=rows)]


COMPARED_FIRST = ("latency_p99_ms", "hitch_ms_per_s", "ns_per_op", "max_abs_error_us")


def comparison_tables(runs: list[WorkloadRun], limit: int = 30) -> list[Table]:
    """Live beside simulated values where a run measured both (the JSON's `comparisons`)."""
    rows = [c for r in runs for c in r.document.get("comparisons", [])]
    if not rows:
        return []
    rows.sort(
        key=lambda c: (
            c["metric"] not in COMPARED_FIRST,
            COMPARED_FIRST.index(c["metric"]) if c["metric"] in COMPARED_FIRST else 0,
            c["metric"],
        )
    )
    body = [
        [
            c["scenario"],
            c["variant"],
            f"{c['metric']} ({c['unit']})",
            fmt(_num(c["sim"])),
            fmt(_num(c["live"])),
            fmt(_num(c["ratio"])) if c.get("ratio") is not None else "–",
        ]
        for c in rows[:limit]
    ]
    caption = "live beside simulated, same scenario, variant and seed: one value each (n = 1), ratio = live / sim"
    if len(rows) > limit:
        caption += f"; first {limit} of {len(rows)}, the rest are in the JSON"
    return [Table(caption=caption, header=["scenario", "variant", "metric", "sim", "live", "ratio"], rows=body)]


def _num(value) -> float:
    return float(value) if isinstance(value, (int, float, str)) else float("nan")
