"""The headline numbers of each workload, as plain tables the report renders to HTML and markdown."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from .charts.atomics import CO, CO_THRESHOLD, JAIN, NS, STRATEGY_ORDER, cells, probe_text, work_text
from .charts.cache import VARIANT_ORDER as CACHE_ORDER
from .charts.cache import sweep_table
from .charts.clock import SOURCE_ORDER, error_table, human_us
from .charts.throttle import HITCH, P99, ordered
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


def throttle_tables(runs: list[WorkloadRun]) -> list[Table]:
    table = pd.concat([r.table for r in runs], ignore_index=True)
    tables = []
    for mode in sorted(table["mode"].unique()):
        sub = table[(table["mode"] == mode) & table["metric"].isin([P99, HITCH])]
        if sub.empty:
            continue
        groups = {key: g["value"] for key, g in sub.groupby(["scenario", "variant", "metric"])}
        scenarios = list(dict.fromkeys(sub["scenario"]))
        policies = ordered(sub["variant"].unique())
        rows, bold = [], set()
        for policy in policies:
            row, counts = [policy], []
            for scenario in scenarios:
                p99 = groups.get((scenario, policy, P99), pd.Series(dtype=float))
                hitch = groups.get((scenario, policy, HITCH), pd.Series(dtype=float))
                counts.append(len(p99.dropna()))
                row.append(f"{spread(p99)} / {spread(hitch)}")
            rows.append([row[0], counts_text(counts), *row[1:]])
        for j, scenario in enumerate(scenarios, start=2):
            medians = {p: groups[(scenario, p, P99)].median() for p in policies if (scenario, p, P99) in groups}
            medians = {p: v for p, v in medians.items() if pd.notna(v)}
            if medians:
                bold.add((policies.index(min(medians, key=lambda p: medians[p])), j))
        tables.append(
            Table(
                caption=f"p99 latency (ms) / hitch ratio (ms/s): median (min–max) over n seeds, {mode} mode; "
                "bold: lowest median p99 per scenario",
                header=["policy", "n", *scenarios],
                rows=rows,
                bold=bold,
            )
        )
    return tables


def atomics_tables(runs: list[WorkloadRun]) -> list[Table]:
    data = cells(runs)
    if data.empty:
        return []
    tables = []
    combos = list(
        dict.fromkeys(
            zip(
                data["scenario"],
                data["cs_work_ns"].fillna(-1),
                data["gap_work_ns"].fillna(-1),
                data["mode"],
                strict=True,
            )
        )
    )
    for operation, cs, gap, mode in combos[:6]:
        cell = data[
            (data["scenario"] == operation)
            & (data["cs_work_ns"].fillna(-1) == cs)
            & (data["gap_work_ns"].fillna(-1) == gap)
            & (data["mode"] == mode)
        ]
        threads = sorted(cell["threads_n"].dropna().unique())
        strategies = [s for s in STRATEGY_ORDER if s in set(cell["variant"])] + sorted(
            set(cell["variant"]) - set(STRATEGY_ORDER)
        )
        rows = []
        most = threads[-1] if threads else None
        for strategy in strategies:
            s = cell[cell["variant"] == strategy].set_index("threads_n")
            row = [strategy, counts_text(s["n"])]
            for t in threads:
                if t not in s.index:
                    row.append("–")
                    continue
                median, low, high = s.loc[t, NS], s.loc[t, f"{NS}_min"], s.loc[t, f"{NS}_max"]
                row.append(fmt(median) if low == high else f"{fmt(median)} ({fmt(low)}–{fmt(high)})")
            at_most = s.loc[most] if most in s.index else None
            row.append(fmt(at_most[JAIN]) if at_most is not None else "–")
            serialized = (
                at_most is not None
                and pd.notna(at_most[CO])
                and at_most[CO] < CO_THRESHOLD
                and most is not None
                and most > 1
            )
            row.append(fmt(at_most[CO]) + (" (took turns)" if serialized else "") if at_most is not None else "–")
            rows.append(row)
        header = (
            ["strategy", "n"]
            + [f"{t:g} threads (ns/op)" for t in threads]
            + [f"fairness at {most:g}" if most else "fairness", f"co-scheduled at {most:g}" if most else "co-scheduled"]
        )
        cs_text = work_text(cs if cs >= 0 else None)
        gap_text = work_text(gap if gap >= 0 else None)
        tables.append(
            Table(
                caption=f"{operation}, cs_work {cs_text}, gap_work {gap_text}, {mode}: ns/op median (min–max) "
                "over n repetitions; fairness and co-scheduled fraction: medians",
                header=header,
                rows=rows,
            )
        )
    if len(combos) > 6:
        tables[-1].caption += f" (first 6 of {len(combos)} cells; see the charts and the CSV for the rest)"
    return tables


def atomics_probe(runs: list[WorkloadRun]) -> str:
    return probe_text(runs)


def clock_tables(runs: list[WorkloadRun]) -> list[Table]:
    data, _skipped = error_table(runs)
    if data.empty:
        return []
    scenarios = list(dict.fromkeys(s for r in runs for s in r.table["scenario"] if s in set(data["scenario"])))
    present = set(data["variant"])
    sources = [s for s in SOURCE_ORDER if s in present] + sorted(present - set(SOURCE_ORDER))
    worst = data.groupby(["scenario", "variant"])["error_us"].max()
    worst_row = data.loc[data.groupby(["scenario", "variant"])["error_us"].idxmax().dropna()].set_index(
        ["scenario", "variant"]
    )
    negative = data.groupby(["scenario", "variant"])["negative"].sum(min_count=1)
    rows, bold = [], set()
    for i, scenario in enumerate(scenarios):
        row = [scenario]
        for j, source in enumerate(sources, start=1):
            err = worst.get((scenario, source))
            neg = negative.get((scenario, source))
            text = human_us(err) if err is not None and pd.notna(err) else "–"
            if (scenario, source) in worst_row.index:
                w = worst_row.loc[(scenario, source)]
                if pd.notna(w["error_min_us"]) and w["error_min_us"] != w["error_max_us"]:
                    text += f" ({human_us(w['error_min_us'])}–{human_us(w['error_max_us'])})"
            if neg is not None and pd.notna(neg) and neg > 0:
                text += f", {int(neg)} negative"
                bold.add((i, j))
            row.append(text)
        rows.append([*row[:1], counts_text(data[data["scenario"] == scenario]["n"].dropna()), *row[1:]])
    bold = {(i, j + 1) for i, j in bold}
    clients = ", ".join(dict.fromkeys(data["client"]))
    return [
        Table(
            caption=f"worst timing error over clients ({clients}): median over n seeds (min–max over the seeds "
            "where they differ); bold: negative durations measured",
            header=["scenario", "n", *sources],
            rows=rows,
            bold=bold,
        )
    ]


def cache_tables(runs: list[WorkloadRun]) -> list[Table]:
    """Main-app hit ratio per trace at the trace's own (Signal) cache size; bold: the best policy."""
    data = sweep_table(runs)
    if data.empty:
        return []
    sizes = {
        sc["name"]: int(sc["max_size"])
        for r in runs
        for sc in r.document.get("metadata", {}).get("parameters", {}).get("scenarios", [])
        if "max_size" in sc
    }
    present = list(dict.fromkeys(data["variant"]))
    variants = [v for v in CACHE_ORDER if v in present] + [v for v in present if v not in CACHE_ORDER]
    rows, bold = [], set()
    for i, scenario in enumerate(dict.fromkeys(data["scenario"])):
        sub = data[data["scenario"] == scenario]
        size = sizes.get(scenario, int(sub["capacity"].max()))
        at = sub[sub["capacity"] == size].set_index("variant")
        cells = []
        for v in variants:
            if v not in at.index:
                cells.append("–")
                continue
            low, high = at.loc[v, "hit_ratio_min"], at.loc[v, "hit_ratio_max"]
            cells.append(fmt(at.loc[v, "hit_ratio"]) + ("" if low == high else f" ({fmt(low)}–{fmt(high)})"))
        rows.append([f"{scenario} @ {size}", counts_text(at["n"]), *cells])
        if len(at):
            bold.add((i, 2 + variants.index(at["hit_ratio"].idxmax())))
    return [
        Table(
            caption="hit ratio in the main app at each trace's own cache size: median (min–max) over n seeds, "
            "the range shown where the seeds differ; bold: best median",
            header=["trace @ capacity", "n", *variants],
            rows=rows,
            bold=bold,
        )
    ]


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


def tables_for(workload: str, runs: list[WorkloadRun]) -> list[Table]:
    return _tables_for(workload, runs) + comparison_tables(runs)


def _tables_for(workload: str, runs: list[WorkloadRun]) -> list[Table]:
    if workload == "throttle":
        return throttle_tables(runs) or generic_tables(runs)
    if workload == "atomics":
        return atomics_tables(runs) or generic_tables(runs)
    if workload == "clock":
        return clock_tables(runs) or generic_tables(runs)
    if workload == "cache":
        return cache_tables(runs) or generic_tables(runs)
    return generic_tables(runs)
