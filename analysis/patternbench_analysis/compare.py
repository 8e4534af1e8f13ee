"""`compare BASE NEW`: per cell and metric, the change in % with a bootstrap confidence interval and a verdict.

Modelled on criterion.rs's change report (a bootstrap confidence interval of the relative change,
a noise threshold under which a change does not count) and google/benchmark's compare.py (one
row per benchmark and metric, old, new, change). A cell is (workload, scenario, variant, mode,
factors); its samples are the values over seeds / repetitions in each folder.

- change: median(NEW) / median(BASE) − 1, in %;
- confidence interval: percentile bootstrap (B resamples of each side with replacement, seeded,
  so the same inputs give the same report) of that ratio; where BASE has zeros, of the
  difference of medians, shown relative to BASE's median when it is not 0;
- verdict: `better` / `worse` (by the metric's direction, see directions.py) when the interval
  excludes no change and the change is at least the noise threshold; `changed` when the
  direction is unknown; `no detectable change` otherwise; `too few repetitions` when a side has
  one value and the two differ (no interval can be computed from one value).

Cells only in one folder are listed, not dropped.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from .directions import HIGHER, LOWER, UNKNOWN, direction
from .results import InputError, ResultsFolder, combined, factor_text, workloads

BETTER, WORSE, SAME, CHANGED, FEW = "better", "worse", "no detectable change", "changed", "too few repetitions"
ORDER = {WORSE: 0, CHANGED: 1, FEW: 2, BETTER: 3, SAME: 4}


@dataclass
class Options:
    confidence: float = 0.95
    resamples: int = 2000
    noise_threshold: float = 0.01  # criterion.rs's default: changes under 1 % are noise
    seed: int = 0


@dataclass
class CellChange:
    workload: str
    scenario: str
    variant: str
    mode: str
    factors: dict
    metric: str
    unit: str
    direction: str
    n_base: int
    n_new: int
    base_median: float
    new_median: float
    base_min: float
    base_max: float
    new_min: float
    new_max: float
    change_pct: float | None
    ci_low_pct: float | None
    ci_high_pct: float | None
    verdict: str


@dataclass
class Comparison:
    base: list[str]
    new: list[str]
    options: Options
    cells: list[CellChange] = field(default_factory=list)
    only_in_base: list[dict] = field(default_factory=list)
    only_in_new: list[dict] = field(default_factory=list)
    skipped_non_finite: int = 0

    def counts(self) -> dict[str, int]:
        out = {v: 0 for v in ORDER}
        for cell in self.cells:
            out[cell.verdict] += 1
        return out


def _bootstrap(base: np.ndarray, new: np.ndarray, options: Options, rng: np.random.Generator):
    """(change, low, high) as fractions; None where not defined."""
    b_med, n_med = float(np.median(base)), float(np.median(new))
    alpha = (1 - options.confidence) / 2
    bi = rng.integers(0, len(base), size=(options.resamples, len(base)))
    ni = rng.integers(0, len(new), size=(options.resamples, len(new)))
    b_star = np.median(base[bi], axis=1)
    n_star = np.median(new[ni], axis=1)
    if np.all(b_star > 0) or np.all(b_star < 0):
        ratios = n_star / b_star - 1
        low, high = np.quantile(ratios, [alpha, 1 - alpha])
        return n_med / b_med - 1, float(low), float(high), True
    diffs = n_star - b_star
    low, high = np.quantile(diffs, [alpha, 1 - alpha])
    if b_med != 0:
        return (n_med - b_med) / abs(b_med), float(low) / abs(b_med), float(high) / abs(b_med), True
    # Relative change from 0 is undefined: the verdict uses the difference's interval.
    return None, float(low), float(high), False


def _verdict(direction_: str, change, low, high, relative: bool, options: Options, n_base: int, n_new: int,
             identical: bool) -> str:
    if identical:
        return SAME
    if n_base < 2 or n_new < 2:
        return FEW
    if low <= 0 <= high:
        return SAME
    if relative and change is not None and abs(change) < options.noise_threshold:
        return SAME
    up = low > 0
    if direction_ == UNKNOWN:
        return CHANGED
    return BETTER if (up and direction_ == HIGHER) or (not up and direction_ == LOWER) else WORSE


def _samples(folders: list[ResultsFolder], workload: str) -> tuple[dict, dict, list[str]]:
    runs = combined(folders, workload)
    table = pd.concat([r.table for r in runs], ignore_index=True)
    factors = list(dict.fromkeys(f for r in runs for f in r.factor_names))
    for f in factors:
        if f not in table:
            table[f] = ""
    keys = ["scenario", "variant", "mode"] + factors + ["metric"]
    key_frame = table[keys].copy()
    for f in factors:
        key_frame[f] = key_frame[f].map(factor_text)
    table = table.assign(**{f: key_frame[f] for f in factors})
    cells, units = {}, {}
    for key, group in table.groupby(keys, sort=False):
        cells[key] = group["value"].to_numpy(dtype=float)
        units[key] = group["unit"].iloc[0]
    return cells, units, factors


def compare(base: list[ResultsFolder], new: list[ResultsFolder], options: Options | None = None) -> Comparison:
    options = options or Options()
    rng = np.random.default_rng(options.seed)
    result = Comparison(base=sorted({i for f in base for r in f.runs.values() for i in r.run_ids}),
                        new=sorted({i for f in new for r in f.runs.values() for i in r.run_ids}), options=options)
    base_workloads, new_workloads = set(workloads(base)), set(workloads(new))
    if not base_workloads & new_workloads:
        raise InputError(f"nothing to compare: BASE holds {', '.join(sorted(base_workloads))}, "
                         f"NEW holds {', '.join(sorted(new_workloads))}")
    for workload in [w for w in workloads(new) if w in base_workloads]:
        b_cells, b_units, factors = _samples(base, workload)
        n_cells, n_units, n_factors = _samples(new, workload)
        if factors != n_factors:
            raise InputError(f"{workload}: factor columns differ (BASE {factors}, NEW {n_factors}); cannot pair cells")
        for key in n_cells:
            described = _describe(workload, key, factors)
            if key not in b_cells:
                result.only_in_new.append(described)
                continue
            b, n = b_cells[key], n_cells[key]
            finite_b, finite_n = b[np.isfinite(b)], n[np.isfinite(n)]
            result.skipped_non_finite += (len(b) - len(finite_b)) + (len(n) - len(finite_n))
            if len(finite_b) == 0 or len(finite_n) == 0:
                result.only_in_new.append(described | {"note": "no finite value on one side"})
                continue
            d = direction(workload, key[-1])
            identical = sorted(finite_b.tolist()) == sorted(finite_n.tolist())
            change, low, high, relative = _bootstrap(finite_b, finite_n, options, rng)
            verdict = _verdict(d, change, low, high, relative, options, len(finite_b), len(finite_n), identical)
            few = len(finite_b) < 2 or len(finite_n) < 2
            result.cells.append(CellChange(
                **described, unit=b_units[key], direction=d, n_base=len(finite_b), n_new=len(finite_n),
                base_median=float(np.median(finite_b)), new_median=float(np.median(finite_n)),
                base_min=float(finite_b.min()), base_max=float(finite_b.max()), new_min=float(finite_n.min()),
                new_max=float(finite_n.max()),
                change_pct=0.0 if identical else (None if change is None else 100 * change),
                ci_low_pct=None if (few or not relative) else 100 * low,
                ci_high_pct=None if (few or not relative) else 100 * high, verdict=verdict))
        result.only_in_base += [_describe(workload, k, factors) for k in b_cells if k not in n_cells]
    result.cells.sort(key=lambda c: (ORDER[c.verdict], -abs(c.change_pct or 0)))
    return result


def _describe(workload: str, key: tuple, factors: list[str]) -> dict:
    scenario, variant, mode, *rest = key
    return {"workload": workload, "scenario": scenario, "variant": variant, "mode": mode,
            "factors": {f: v for f, v in zip(factors, rest[:-1]) if v != ""}, "metric": rest[-1]}


# ---------------------------------------------------------------- rendering

def _pct(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:+.1f} %"


def _num(value: float) -> str:
    if value is None or (isinstance(value, float) and (math.isnan(value) or math.isinf(value))):
        return str(value)
    return f"{value:.4g}"


def _cell_name(c: CellChange) -> str:
    factors = "".join(f", {k}={v}" for k, v in c.factors.items())
    return f"{c.workload} {c.scenario} / {c.variant} ({c.mode}{factors})"


HEADER = ["cell", "metric", "n base / new", "base median (min–max)", "new median (min–max)", "change", "95 % CI",
          "verdict"]


def rows(comparison: Comparison, changed_only: bool = False) -> list[list[str]]:
    out = []
    for c in comparison.cells:
        if changed_only and c.verdict == SAME:
            continue
        ci = "–" if c.ci_low_pct is None else f"[{c.ci_low_pct:+.1f} %, {c.ci_high_pct:+.1f} %]"
        out.append([_cell_name(c), f"{c.metric} ({c.unit})", f"{c.n_base} / {c.n_new}",
                    f"{_num(c.base_median)} ({_num(c.base_min)}–{_num(c.base_max)})",
                    f"{_num(c.new_median)} ({_num(c.new_min)}–{_num(c.new_max)})",
                    _pct(c.change_pct) if c.change_pct is not None else "from 0", ci, c.verdict])
    return out


def summary_line(comparison: Comparison) -> str:
    counts = comparison.counts()
    o = comparison.options
    return (f"{len(comparison.cells)} cells × metrics compared: {counts[WORSE]} worse, {counts[BETTER]} better, "
            f"{counts[CHANGED]} changed (direction unknown), {counts[SAME]} no detectable change, "
            f"{counts[FEW]} with too few repetitions; {int(o.confidence * 100)} % bootstrap interval "
            f"({o.resamples} resamples) of the ratio of medians, noise threshold {o.noise_threshold:.0%}")


def to_markdown(comparison: Comparison, heading: str = "#") -> str:
    from .report import md_table
    parts = [f"{heading} Comparison: NEW against BASE", "",
             f"BASE: {', '.join(comparison.base)}  ", f"NEW: {', '.join(comparison.new)}", "",
             summary_line(comparison), ""]
    changed = rows(comparison, changed_only=True)
    if changed:
        parts += [md_table(HEADER, changed), ""]
    same = sum(1 for c in comparison.cells if c.verdict == SAME)
    if same:
        parts += [f"{same} cells × metrics with no detectable change are in the JSON and HTML.", ""]
    parts += _missing_lines(comparison)
    return "\n".join(parts)


def _missing_lines(comparison: Comparison) -> list[str]:
    lines = []
    for label, items in (("only in BASE", comparison.only_in_base), ("only in NEW", comparison.only_in_new)):
        if items:
            shown = "; ".join(f"{i['workload']} {i['scenario']}/{i['variant']} {i['metric']}" for i in items[:10])
            lines += [f"- {len(items)} cells × metrics {label} (not compared): {shown}{' …' if len(items) > 10 else ''}"]
    if comparison.skipped_non_finite:
        lines += [f"- {comparison.skipped_non_finite} non-finite values (inf/nan) left out of the medians"]
    return lines + ([""] if lines else [])


VERDICT_COLOURS = {WORSE: "#cf222e", BETTER: "#1a7f37", CHANGED: "#9a6700", FEW: "#59636e", SAME: "#1f2328"}


def to_html_section(comparison: Comparison) -> str:
    from .report import h
    out = ['<section id="comparison"><h2>Comparison: NEW against BASE</h2>',
           f"<p>BASE: {h(', '.join(comparison.base))}<br>NEW: {h(', '.join(comparison.new))}</p>",
           f'<p class="caption">{h(summary_line(comparison))}</p>', "<table><thead><tr>"
           + "".join(f"<th>{h(c)}</th>" for c in HEADER) + "</tr></thead><tbody>"]
    for row, cell in zip(rows(comparison), comparison.cells):
        colour = VERDICT_COLOURS[cell.verdict]
        tds = "".join(f'<td class="num">{h(v)}</td>' if 2 <= i <= 6 else f"<td>{h(v)}</td>" for i, v in enumerate(row[:-1]))
        out.append(f'<tr data-verdict="{h(cell.verdict)}">{tds}<td style="color:{colour};font-weight:600">'
                   f"{h(row[-1])}</td></tr>")
    out.append("</tbody></table>")
    missing = _missing_lines(comparison)
    if missing:
        out.append("<ul>" + "".join(f"<li>{h(m[2:])}</li>" for m in missing if m) + "</ul>")
    out.append("</section>")
    return "".join(out)


def to_html(comparison: Comparison) -> str:
    from .report import CSS
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>PatternBench comparison</title>"
            f"<style>{CSS}</style></head><body><main>{to_html_section(comparison)}</main></body></html>\n")


def to_json(comparison: Comparison) -> str:
    def clean(value):
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    document = {"base_run_ids": comparison.base, "new_run_ids": comparison.new, "options": asdict(comparison.options),
                "statistic": "ratio of medians over seeds/repetitions; percentile bootstrap interval",
                "counts": comparison.counts(), "cells": [asdict(c) for c in comparison.cells],
                "only_in_base": comparison.only_in_base, "only_in_new": comparison.only_in_new,
                "skipped_non_finite": comparison.skipped_non_finite}
    return json.dumps(clean(document), indent=2, ensure_ascii=False) + "\n"
