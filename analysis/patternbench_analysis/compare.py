"""`compare BASE NEW`: per cell and metric, the change with its interval and a verdict, by the one rule.

Modelled on google/benchmark's compare.py (one row per benchmark and metric: old, new, change); the
statistics are verdicts.py's rule `pb-verdict-3` (the same rule bench-gate applies, see that
module's docstring for its assumptions). A cell is (workload, scenario, variant, mode, factors);
its samples are the values over seeds / repetitions, grouped by run. BASE and NEW may each be
several folders (e.g. the rounds of an interleaved A/B job): with ≥ 5 runs a side, each run counts
once (its median); otherwise the repetitions are compared and must clear the noise floor learned
from A/A pairs on the same CPU, or the verdict is `inconclusive`.

- change: NEW's median against BASE's, relative, so its sign always agrees with the two medians;
- estimate: the Hodges–Lehmann shift NEW − BASE the rule judges (a ratio on log values when all
  are > 0), after the cell's common shift where one was removed (then labelled so);
- interval: the estimate's distribution-free 95 % interval (Moses);
- verdict: `worse` / `better` (by the metric's direction, see directions.py), `changed` when the
  direction is unknown, `no detectable change`, `inconclusive`, `too few repetitions`, or
  `not comparable` (the sides ran on different CPUs). Each cell says why (`why`). A metric that
  describes the host (directions.HOST_CONDITIONS) is a `host condition`, never better or worse.

Each side is named: its runs' host (CPU model and family), build and load at start and end. A run
compared with itself is refused.

Cells only in one folder are listed, not dropped. Warnings name what weakens the comparison:
different CPUs, a co-scheduling probe that says the threads took turns, a host load that differed
(the probe's co-scheduled fraction), debug builds, too few repetitions, missing noise floors.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import verdicts as V
from .directions import THRESHOLDS, direction
from .markup import CSS, h, md_table
from .results import Cell, InputError, ResultsFolder, combined, factor_text, workloads

BETTER, WORSE, SAME, CHANGED, FEW, INCONCLUSIVE, CONDITION = (
    V.BETTER,
    V.WORSE,
    V.SAME,
    V.CHANGED,
    V.FEW,
    V.INCONCLUSIVE,
    V.CONDITION,
)
NOT_COMPARABLE = "not comparable"
ORDER = {WORSE: 0, CHANGED: 1, INCONCLUSIVE: 2, FEW: 3, NOT_COMPARABLE: 4, BETTER: 5, SAME: 6, CONDITION: 7}


@dataclass
class Options:
    min_effect: float = V.DEFAULT_MIN_EFFECT  # changes smaller than this are not reported (criterion.rs's 1 %)
    noise_floor: str | None = None  # results/noise-floor.json of the checkout when None
    thresholds: str | None = None  # gated metrics' tolerances: results/thresholds.json when None
    rule: str = V.RULE


@dataclass
class CellChange(Cell):
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
    change_pct: float | None  # the medians' change: its sign always agrees with them
    ci_low_pct: float | None  # the estimate's interval
    ci_high_pct: float | None
    verdict: str
    sample_unit: str = ""  # runs / repetitions / seeds / deterministic
    runs_base: int = 0
    runs_new: int = 0
    p_value: float | None = None
    p_adjusted: float | None = None
    min_effect: float | None = None
    noise_floor: float | None = None
    estimate_pct: float | None = None  # the Hodges–Lehmann shift judged, the common shift removed where one was
    common_shift_pct: float | None = None  # that shift (one run a side, over the cell's variants), or None
    why: str = ""


@dataclass
class Comparison:
    base: list[str]
    new: list[str]
    options: Options
    cells: list[CellChange] = field(default_factory=list)
    only_in_base: list[dict] = field(default_factory=list)
    only_in_new: list[dict] = field(default_factory=list)
    skipped_non_finite: int = 0
    warnings: list[str] = field(default_factory=list)
    sides: dict[str, list[dict]] = field(default_factory=dict)  # BASE/NEW: each run's host, build and load

    def counts(self) -> dict[str, int]:
        out = {v: 0 for v in ORDER}
        for cell in self.cells:
            out[cell.verdict] += 1
        return out


def _samples(folders: list[ResultsFolder], workload: str) -> tuple[dict, dict, list[str]]:
    """Per cell key: {run_id: [(seed, value), …]} and the unit."""
    runs = combined(folders, workload)
    table = pd.concat([r.table for r in runs], ignore_index=True)
    factors = list(dict.fromkeys(f for r in runs for f in r.factor_names))
    for f in factors:
        if f not in table:
            table[f] = ""
    keys = ["scenario", "variant", "mode", *factors, "metric"]
    key_frame = table[keys].copy()
    for f in factors:
        key_frame[f] = key_frame[f].map(factor_text)
    table = table.assign(**{f: key_frame[f] for f in factors})
    cells, units = {}, {}
    for key, group in table.groupby(keys, sort=False):
        per_run: dict[str, list] = {}
        for run_id, seed, value in zip(group["run_id"], group["seed"], group["value"], strict=True):
            per_run.setdefault(str(run_id), []).append((seed, float(value)))
        cells[key] = per_run
        units[key] = group["unit"].iloc[0]
    return cells, units, factors


# ---------------------------------------------------------------- run metadata: CPUs, probes, builds


def _documents(folders: list[ResultsFolder], workload: str) -> list[dict]:
    return [r.document for r in combined(folders, workload)]


def _fingerprints(folders: list[ResultsFolder], workload: str) -> set:
    return {V.fingerprint(d.get("metadata", {}).get("host", {})) for d in _documents(folders, workload)}


def _probe_fractions(folders: list[ResultsFolder], workload: str) -> list[tuple[str, float, str]]:
    out = []
    for d in _documents(folders, workload):
        probe = d.get("metadata", {}).get("parameters", {}).get("co_scheduling_probe")
        if not isinstance(probe, dict):
            continue
        for when in ("before", "after"):
            p = probe.get(when)
            if isinstance(p, dict) and isinstance(p.get("fraction"), (int, float)):
                out.append((str(d.get("run_id")), float(p["fraction"]), str(p.get("verdict", ""))))
    return out


def _side_load(folders: list[ResultsFolder], workload: str) -> tuple[float, float, float, int] | None:
    """(mean, lowest, highest, logical cores) of a side's 1-minute load averages, start and end of
    every run that measured live; None when no run records its load (runs before the field)."""
    readings, cores = [], 1
    for d in _documents(folders, workload):
        if not any(r.get("mode") == "live" for r in d.get("records", [])):
            continue
        meta = d.get("metadata", {})
        readings += [
            float(meta[k])
            for k in ("load_average_1m_start", "load_average_1m_end")
            if isinstance(meta.get(k), (int, float))
        ]
        cores = max(cores, int(meta.get("host", {}).get("logical_cores") or 1))
    if not readings:
        return None
    return sum(readings) / len(readings), min(readings), max(readings), cores


def _side_noise(folders: list[ResultsFolder], workload: str) -> tuple[float | None, float | None]:
    """(highest 1-minute load per logical core, lowest co-scheduling probe fraction) of a side's runs
    that measured live: what `verdicts.noisier_than_floor` weighs against the floor's learning pairs.
    None where no run records it."""
    side = _side_load(folders, workload)
    fractions = [f for _, f, _ in _probe_fractions(folders, workload)]
    return (None if side is None else side[2] / max(side[3], 1)), (min(fractions) if fractions else None)


def describe_run(document: dict) -> dict:
    """One run as a side of a comparison names it: its host, its build, its load at start and end."""
    meta = document.get("metadata", {})
    host = meta.get("host", {})
    cpu = host.get("cpu_model") or "unknown CPU"
    if host.get("cpu_family") is not None:
        cpu += f" (family {host['cpu_family']}, model {host.get('cpu_model_number')})"
    commit = str(meta.get("git_commit") or "unknown commit")[:12] + (" dirty" if meta.get("git_dirty") else "")
    return {
        "run_id": str(document.get("run_id")),
        "host": f"{host.get('hostname') or 'unknown host'}: {cpu}, {host.get('logical_cores') or '?'} logical cores",
        "build": f"{meta.get('build_configuration') or 'unknown'} build, {commit}, Swift {meta.get('swift_version')}",
        "load_start": meta.get("load_average_1m_start"),
        "load_end": meta.get("load_average_1m_end"),
    }


def _side_text(run: dict) -> str:
    def load(value) -> str:
        return "not recorded" if value is None else f"{value:.2f}"

    return (
        f"{run['run_id']}: {run['host']}; {run['build']}; 1-minute load average {load(run['load_start'])} "
        f"at start, {load(run['load_end'])} at end"
    )


def _refuse_self_comparison(base: list[ResultsFolder], new: list[ResultsFolder]) -> None:
    """A run against itself shows no difference by construction: its "no change" says nothing."""
    paths = {f.path.resolve() for f in base} & {f.path.resolve() for f in new}
    runs = {i for f in base for r in f.runs.values() for i in r.run_ids} & {
        i for f in new for r in f.runs.values() for i in r.run_ids
    }
    if paths or runs:
        same = ", ".join(sorted(str(p) for p in paths) or sorted(runs))
        raise InputError(f"BASE and NEW hold the same run(s) ({same}): compare two different runs")


def _load_warning(base: list[ResultsFolder], new: list[ResultsFolder], workload: str) -> str | None:
    """The warning when the sides ran at markedly different host loads, or None. The rule is the
    gate's (HostLoadCheck.swift): the difference of the sides' mean loads is at least half the
    logical cores (at least 1) and the higher is at least 1.5x the lower."""
    b, n = _side_load(base, workload), _side_load(new, workload)
    if b is None or n is None:
        return None
    cores = max(b[3], n[3], 1)
    lower, higher = max(min(b[0], n[0]), 0.1), max(b[0], n[0])
    if not (higher - lower >= max(1.0, 0.5 * cores) and higher >= 1.5 * lower):
        return None

    def describe(side: tuple[float, float, float, int]) -> str:
        mean, low, high, _ = side
        return f"{mean:.2f}" if low == high else f"{mean:.2f} ({low:.2f}–{high:.2f})"

    return (
        f"{workload}: the host's load differed: 1-minute load average {describe(b)} in BASE, {describe(n)} in NEW, "
        f"on {cores} logical cores; live numbers move with the load alone"
    )


def _host_warnings(
    base: list[ResultsFolder], new: list[ResultsFolder], workload: str, several_threads: bool = True
) -> tuple[list[str], bool]:
    """(warnings, comparable): the sides' CPUs, co-scheduling probes, loads and builds."""
    warnings, comparable = [], True
    bp, np_ = _fingerprints(base, workload), _fingerprints(new, workload)
    known = {p for p in bp | np_ if p is not None}
    if len(known) > 1:
        comparable = False
        warnings.append(
            f"{workload}: different CPU fingerprints (BASE {', '.join(sorted(str(p) for p in bp))}; "
            f"NEW {', '.join(sorted(str(p) for p in np_))}): live cells not comparable"
        )
    elif None in bp | np_ and known:
        warnings.append(
            f"{workload}: a side does not record its CPU (run before fingerprints); taken as {next(iter(known))}"
        )
    for label, folders in (("BASE", base), ("NEW", new)) if several_threads else ():
        serialized = sorted({run for run, _, verdict in _probe_fractions(folders, workload) if verdict == "serialized"})
        if serialized:
            warnings.append(
                f"{workload}: the co-scheduling probe of {label} run {', '.join(serialized)} says the threads "
                "took turns (serialized): its multi-thread cells measure time slicing, not contention"
            )
    fb = [f for _, f, _ in _probe_fractions(base, workload)]
    fn = [f for _, f, _ in _probe_fractions(new, workload)]
    if fb and fn and abs(float(np.mean(fb)) - float(np.mean(fn))) > 0.25:
        warnings.append(
            f"{workload}: the host's load differed: two threads ran at once {np.mean(fb):.0%} of the probe "
            f"in BASE, {np.mean(fn):.0%} in NEW"
        )
    load_warning = _load_warning(base, new, workload)
    if load_warning:
        warnings.append(load_warning)
    builds = {d.get("metadata", {}).get("build_configuration") for d in _documents(base + new, workload)}
    if "debug" in builds:
        warnings.append(f"{workload}: a side is a debug build: its live numbers say nothing about release")
    return warnings, comparable


def _tolerances(path: str | None) -> list[dict]:
    """The gate's hardware metrics (their tolerance is the minimum effect of the cells they select)."""
    file = Path(path) if path else THRESHOLDS
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        if path:
            raise InputError(f"--thresholds {path}: cannot read it") from error
        return []
    except ValueError as error:
        raise InputError(f"thresholds file {file}: not JSON ({error})") from error
    return [m for m in document.get("hardware_metrics", []) if isinstance(m, dict)]


def _min_effect(gated: list[dict], workload: str, scenario: str, metric: str, factors: dict, default: float) -> float:
    for m in gated:
        if (
            m.get("workload") == workload
            and m.get("metric") == metric
            and m.get("scenario") in (None, scenario)
            and all(factors.get(k) == v for k, v in (m.get("factors") or {}).items())
        ):
            return float(m.get("tolerance", default))
    return default


def compare(base: list[ResultsFolder], new: list[ResultsFolder], options: Options | None = None) -> Comparison:
    options = options or Options()
    _refuse_self_comparison(base, new)
    result = Comparison(
        base=sorted({i for f in base for r in f.runs.values() for i in r.run_ids}),
        new=sorted({i for f in new for r in f.runs.values() for i in r.run_ids}),
        options=options,
    )
    base_workloads, new_workloads = set(workloads(base)), set(workloads(new))
    if not base_workloads & new_workloads:
        raise InputError(
            f"nothing to compare: BASE holds {', '.join(sorted(base_workloads))}, "
            f"NEW holds {', '.join(sorted(new_workloads))}"
        )
    floors = (
        V.NoiseFloors.load(Path(options.noise_floor), required=True)
        if options.noise_floor
        else V.NoiseFloors.load(V.NOISE_FLOOR_FILE)
    )
    gated = _tolerances(options.thresholds)
    result.sides = {
        label: [describe_run(d) for w in sorted(workloads(folders)) for d in _documents(folders, w)]
        for label, folders in (("BASE", base), ("NEW", new))
    }
    pending: list[tuple[CellChange, V.Evidence, str, float, tuple, str]] = []
    for workload in [w for w in workloads(new) if w in base_workloads]:
        b_cells, b_units, factors = _samples(base, workload)
        n_cells, _n_units, n_factors = _samples(new, workload)
        if factors != n_factors:
            raise InputError(f"{workload}: factor columns differ (BASE {factors}, NEW {n_factors}); cannot pair cells")
        threads = 3 + factors.index("threads") if "threads" in factors else None
        several = threads is not None and any(k[threads] not in ("", "1") for k in n_cells)
        warnings, comparable = _host_warnings(base, new, workload, several)
        result.warnings += warnings
        prints = {p for p in _fingerprints(base, workload) | _fingerprints(new, workload) if p is not None}
        fingerprint = next(iter(prints)) if len(prints) == 1 else None
        (load_b, probe_b), (load_n, probe_n) = _side_noise(base, workload), _side_noise(new, workload)
        for key in n_cells:
            described = _describe(workload, key, factors)
            if key not in b_cells:
                result.only_in_new.append(described)
                continue
            b, n = _finite(b_cells[key]), _finite(n_cells[key])
            result.skipped_non_finite += _count(b_cells[key]) - _count(b) + _count(n_cells[key]) - _count(n)
            if _count(b) == 0 or _count(n) == 0:
                result.only_in_new.append(described | {"note": "no finite value on one side"})
                continue
            mode = key[2]
            ev = V.evidence(
                {r: [v for _, v in vs] for r, vs in b.items()},
                {r: [v for _, v in vs] for r, vs in n.items()},
                mode,
                [s for vs in b.values() for s, _ in vs],
                [s for vs in n.values() for s, _ in vs],
            )
            bv = [v for vs in b.values() for _, v in vs]
            nv = [v for vs in n.values() for _, v in vs]
            d = direction(workload, key[-1])
            cell = CellChange(
                **described,
                unit=b_units[key],
                direction=d,
                n_base=ev.n_base,
                n_new=ev.n_new,
                base_median=float(np.median(bv)),
                new_median=float(np.median(nv)),
                base_min=min(bv),
                base_max=max(bv),
                new_min=min(nv),
                new_max=max(nv),
                change_pct=None,
                ci_low_pct=None,
                ci_high_pct=None,
                verdict=SAME,
                sample_unit=ev.unit,
                runs_base=ev.runs_base,
                runs_new=ev.runs_new,
            )
            if mode != "sim" and not comparable:
                cell.verdict, cell.why = NOT_COMPARABLE, "measured on different CPUs (see the warnings)"
                ev.p = None
                result.cells.append(cell)
                continue
            key_floor = (fingerprint, workload, key[-1], described["factors"], described["variant"])
            min_effect = _min_effect(gated, workload, key[0], key[-1], described["factors"], options.min_effect)
            noisier = V.noisier_than_floor(
                (load_b, load_n),
                floors.learned_at.get("load_per_core"),
                (probe_b, probe_n),
                floors.learned_at.get("co_scheduled"),
                threads is not None and key[threads] not in ("", "1"),
            )
            pending.append((cell, ev, d, min_effect, key_floor, noisier))
        result.only_in_base += [_describe(workload, k, factors) for k in b_cells if k not in n_cells]
    # Benjamini–Hochberg: one family of every tested live cell, one of every tested sim cell.
    for mode_is_sim in (False, True):
        V.adjust([ev for cell, ev, *_ in pending if (cell.mode == "sim") == mode_is_sim])
    shapes: dict[tuple, list[V.Evidence]] = {}
    for cell, ev, *_ in pending:
        if cell.mode != "sim":
            shapes.setdefault(
                (cell.workload, cell.metric, cell.scenario, json.dumps(cell.factors, sort_keys=True)), []
            ).append(ev)
    V.remove_common_shift(shapes)
    commons = {k: next((e.common for e in evs if e.common is not None), None) for k, evs in shapes.items()}
    moved = [(k, c) for k, c in commons.items() if c is not None and abs(c) >= 0.05]
    if moved:
        largest = sorted(moved, key=lambda m: -abs(m[1]))[:3]
        result.warnings.append(
            f"{len(moved)} metric × cells moved together by 5 % or more over their variants (one run a side: taken "
            "as the run's shift, removed before judging cells; largest: "
            + "; ".join(f"{k[0]} {k[1]} {k[2]} {k[3]} {c:+.0%}" for k, c in largest)
            + "). A change of the code common to all variants of a cell needs interleaved runs to be seen"
        )
    for cell, ev, d, min_effect, key_floor, noisier in pending:
        V.decide(ev, d, min_effect, floors.floor_for(*key_floor), noisier)
        cell.verdict, cell.why = ev.verdict, ev.why
        cell.p_value, cell.p_adjusted, cell.min_effect, cell.noise_floor = ev.p, ev.p_adjusted, ev.min_effect, ev.floor
        cell.change_pct = None if ev.median_change is None else 100 * ev.median_change
        cell.estimate_pct = None if ev.change is None else 100 * ev.change
        cell.common_shift_pct = None if ev.common is None else 100 * ev.common
        cell.ci_low_pct = None if ev.low is None else 100 * ev.low
        cell.ci_high_pct = None if ev.high is None else 100 * ev.high
        result.cells.append(cell)
    counts = result.counts()
    if counts[INCONCLUSIVE]:
        result.warnings.append(
            f"{counts[INCONCLUSIVE]} cells × metrics inconclusive: their repetitions differ, but with "
            f"fewer than {V.MIN_RUNS} runs a side and no noise floor for this CPU and metric the "
            "run-to-run noise is unknown: run interleaved (scripts/ab-gate.sh) / more runs, or learn a "
            "floor from A/A pairs (--learn-noise-floor)"
        )
    if counts[FEW]:
        result.warnings.append(
            f"{counts[FEW]} cells × metrics with too few repetitions (fewer than {V.MIN_REPS} a side): not judged"
        )
    result.cells.sort(key=lambda c: (ORDER[c.verdict], -abs(c.change_pct or 0)))
    return result


def learn_noise_floor(comparison: Comparison, base: list[ResultsFolder], new: list[ResultsFolder], path: Path) -> int:
    """Treats BASE/NEW as a same-binary A/A pair: adds each tested live cell's change to the floors in `path`."""
    floors = V.NoiseFloors.load(path)
    for workload in {c.workload for c in comparison.cells}:
        for side in (base, new):
            load, probe = _side_noise(side, workload)
            floors.learned_under(load, probe)
    groups: dict[str, list[float]] = {}
    for workload in {c.workload for c in comparison.cells}:
        prints = {p for p in _fingerprints(base, workload) | _fingerprints(new, workload) if p is not None}
        if len(prints) != 1:
            raise InputError(
                f"--learn-noise-floor: {workload} was not measured on one identified CPU "
                f"({len(prints)} fingerprints); a floor belongs to one CPU"
            )
    for c in comparison.cells:
        if c.mode == "sim" or c.sample_unit != V.REPS or c.estimate_pct is None:
            continue
        prints = {p for p in _fingerprints(base, c.workload) | _fingerprints(new, c.workload) if p is not None}
        key = V.floor_key(next(iter(prints)), c.workload, c.metric, c.factors, c.variant)
        groups.setdefault(key, []).append(c.estimate_pct / 100)
    pair = f"{'+'.join(comparison.base)} vs {'+'.join(comparison.new)}"
    for key, changes in groups.items():
        floors.learn(key, changes, pair)
    floors.save(path)
    return len(groups)


def _finite(per_run: dict) -> dict:
    return {r: [(s, v) for s, v in vs if math.isfinite(v)] for r, vs in per_run.items()}


def _count(per_run: dict) -> int:
    return sum(len(vs) for vs in per_run.values())


def _describe(workload: str, key: tuple, factors: list[str]) -> dict:
    scenario, variant, mode, *rest = key
    return {
        "workload": workload,
        "scenario": scenario,
        "variant": variant,
        "mode": mode,
        "factors": {f: v for f, v in zip(factors, rest[:-1], strict=False) if v != ""},
        "metric": rest[-1],
    }


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


HEADER = [
    "cell",
    "metric",
    "n base / new",
    "base median (min–max)",
    "new median (min–max)",
    "change of the medians",
    "estimate judged (Hodges–Lehmann)",
    "its interval (95 %; below 5 a side: the full range)",
    "verdict",
    "why",
]


def _estimate(c: CellChange) -> str:
    """The shift the rule judged, labelled when the cell's common shift was removed from it."""
    if c.estimate_pct is None:
        return "–"
    if c.common_shift_pct is None:
        return _pct(c.estimate_pct)
    return f"{_pct(c.estimate_pct)} adjusted (common shift {_pct(c.common_shift_pct)} removed)"


def rows(comparison: Comparison, changed_only: bool = False) -> list[list[str]]:
    out = []
    for c in comparison.cells:
        if changed_only and c.verdict in (SAME, CONDITION):
            continue
        ci = "–" if c.ci_low_pct is None else f"[{c.ci_low_pct:+.1f} %, {c.ci_high_pct:+.1f} %]"
        n = f"{c.n_base} / {c.n_new}" + (" runs" if c.sample_unit == V.RUNS else "")
        out.append(
            [
                _cell_name(c),
                f"{c.metric} ({c.unit})",
                n,
                f"{_num(c.base_median)} ({_num(c.base_min)}–{_num(c.base_max)})",
                f"{_num(c.new_median)} ({_num(c.new_min)}–{_num(c.new_max)})",
                _pct(c.change_pct) if c.change_pct is not None else ("–" if c.p_value is None else "from 0"),
                _estimate(c),
                ci,
                c.verdict,
                c.why,
            ]
        )
    return out


def summary_line(comparison: Comparison) -> str:
    counts = comparison.counts()
    o = comparison.options
    return (
        f"{len(comparison.cells)} cells × metrics compared: {counts[WORSE]} worse, {counts[BETTER]} better, "
        f"{counts[CHANGED]} changed (direction unknown), {counts[SAME]} no detectable change, "
        f"{counts[INCONCLUSIVE]} inconclusive, {counts[FEW]} with too few repetitions, "
        f"{counts[NOT_COMPARABLE]} not comparable; {counts[CONDITION]} host conditions (not judged). Rule {V.RULE}: two-sided Mann–Whitney per cell "
        f"(run medians with ≥ {V.MIN_RUNS} runs a side, else repetitions against the A/A noise floor), "
        f"Benjamini–Hochberg at FDR {V.Q:.0%}, Hodges–Lehmann change with its 95 % interval, "
        f"minimum effect {o.min_effect:.0%} (a gated metric's tolerance where one applies); against a floor the "
        "bar widens to the repetitions' spread, and a side that ran noisier than the floor was learned at "
        "(load per core, co-scheduling probe) is inconclusive"
    )


def side_lines(comparison: Comparison) -> list[str]:
    """Each side's runs: host, build and load at start and end."""
    return [f"{label} {_side_text(run)}" for label, runs in comparison.sides.items() for run in runs]


def condition_lines(comparison: Comparison) -> list[str]:
    """Host-health metrics that moved by the minimum effect or more: conditions, beside the verdicts."""
    moved = [
        c
        for c in comparison.cells
        if c.verdict == CONDITION
        and c.change_pct is not None
        and abs(c.change_pct) >= 100 * comparison.options.min_effect
    ]
    by_metric: dict[str, list[CellChange]] = {}
    for c in moved:
        by_metric.setdefault(f"{c.workload} {c.metric}", []).append(c)
    out = []
    for name, cells in sorted(by_metric.items()):
        b = float(np.median([c.base_median for c in cells]))
        n = float(np.median([c.new_median for c in cells]))
        out.append(
            f"{name}: moved by {comparison.options.min_effect:.0%} or more in {len(cells)} cells "
            f"(median of their medians {_num(b)} in BASE, {_num(n)} in NEW): the host's, not the code's"
        )
    return out


def to_markdown(comparison: Comparison, heading: str = "#") -> str:
    parts = [
        f"{heading} Comparison: NEW against BASE",
        "",
        f"BASE: {', '.join(comparison.base)}  ",
        f"NEW: {', '.join(comparison.new)}",
        "",
        *[f"- {line}" for line in side_lines(comparison)],
        "",
        summary_line(comparison),
        "",
    ]
    if comparison.warnings:
        parts += [f"**Warning:** {w}  " for w in comparison.warnings] + [""]
    conditions = condition_lines(comparison)
    if conditions:
        parts += ["Host conditions (reported, never judged better or worse):", ""]
        parts += [f"- {line}" for line in conditions] + [""]
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
            lines += [
                f"- {len(items)} cells × metrics {label} (not compared): {shown}{' …' if len(items) > 10 else ''}"
            ]
    if comparison.skipped_non_finite:
        lines += [f"- {comparison.skipped_non_finite} non-finite values (inf/nan) left out of the medians"]
    return lines + ([""] if lines else [])


VERDICT_COLOURS = {
    WORSE: "#cf222e",
    BETTER: "#1a7f37",
    CHANGED: "#9a6700",
    FEW: "#59636e",
    SAME: "#1f2328",
    INCONCLUSIVE: "#59636e",
    NOT_COMPARABLE: "#59636e",
    CONDITION: "#59636e",
}


def to_html_section(comparison: Comparison) -> str:
    out = [
        '<section id="comparison"><h2>Comparison: NEW against BASE</h2>',
        f"<p>BASE: {h(', '.join(comparison.base))}<br>NEW: {h(', '.join(comparison.new))}</p>",
        "<ul>" + "".join(f"<li>{h(line)}</li>" for line in side_lines(comparison)) + "</ul>",
        f'<p class="caption">{h(summary_line(comparison))}</p>',
        "".join(f'<p class="warning"><strong>Warning:</strong> {h(w)}</p>' for w in comparison.warnings),
        "".join(f'<p class="condition">Host condition: {h(line)}</p>' for line in condition_lines(comparison)),
        "<table><thead><tr>" + "".join(f"<th>{h(c)}</th>" for c in HEADER) + "</tr></thead><tbody>",
    ]
    for row, cell in zip(rows(comparison), comparison.cells, strict=False):
        colour = VERDICT_COLOURS[cell.verdict]
        tds = "".join(
            f'<td class="num">{h(v)}</td>' if 2 <= i <= 7 else f"<td>{h(v)}</td>" for i, v in enumerate(row[:-2])
        )
        out.append(
            f'<tr data-verdict="{h(cell.verdict)}">{tds}<td style="color:{colour};font-weight:600">'
            f"{h(row[-2])}</td><td>{h(row[-1])}</td></tr>"
        )
    out.append("</tbody></table>")
    missing = _missing_lines(comparison)
    if missing:
        out.append("<ul>" + "".join(f"<li>{h(m[2:])}</li>" for m in missing if m) + "</ul>")
    out.append("</section>")
    return "".join(out)


def to_html(comparison: Comparison) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>PatternBench comparison</title>'
        f"<style>{CSS}</style></head><body><main>{to_html_section(comparison)}</main></body></html>\n"
    )


def to_json(comparison: Comparison) -> str:
    def clean(value):
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    document = {
        "base_run_ids": comparison.base,
        "new_run_ids": comparison.new,
        "options": asdict(comparison.options),
        "statistic": f"rule {V.RULE}: Mann–Whitney per cell, Benjamini–Hochberg at {V.Q}, Hodges–Lehmann "
        "change with its Moses 95 % interval; run medians with "
        f"≥ {V.MIN_RUNS} runs a side, else repetitions against the A/A noise floor",
        "sides": comparison.sides,
        "warnings": comparison.warnings,
        "host_conditions": condition_lines(comparison),
        "counts": comparison.counts(),
        "cells": [asdict(c) for c in comparison.cells],
        "only_in_base": comparison.only_in_base,
        "only_in_new": comparison.only_in_new,
        "skipped_non_finite": comparison.skipped_non_finite,
    }
    return json.dumps(clean(document), indent=2, ensure_ascii=False) + "\n"
