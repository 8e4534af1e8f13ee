"""The one rule for "did this cell change between BASE and NEW?" (rule `pb-verdict-3`).

`compare`, `history changes` and bench-gate (Sources/Verdicts/VerdictRule.swift, the same
rule in Swift; tests/test_verdict_agreement.py runs both on committed real run pairs and requires
identical verdicts) all decide with this. Nothing in it is random: the same numbers give the same
verdict in Python and Swift, on every machine.

A *cell* is (workload, scenario, variant, mode, factors) × metric. Per cell and side the values
come grouped by run (run_id).

Assumptions, and what follows from them:

1. Repetitions inside one run share the host's state (its load, its frequency, where the threads
   landed). Two separate runs are two samples of the host. So the unit of replication is the
   **run** when each side has at least `MIN_RUNS` runs (interleaved rounds, as scripts/ab-gate.sh
   measures): each run contributes the median of its repetitions, and the test compares those.
2. With fewer runs a side (the usual "one run before, one after"), repetitions are compared, but
   their test cannot see run-to-run noise. A change then also has to clear a **noise floor**: the
   largest change that same-binary A/A run pairs showed for that metric, cell shape and variant on that CPU
   (`NoiseFloors`, stored in results/noise-floor.json, learned with `compare --learn-noise-floor`).
   Without a floor the verdict is `inconclusive` ("run interleaved / more runs") wherever the
   repetitions alone would have called a change.
   With one run a side, a shift common to every variant of a metric and cell (their median change:
   the host's load while the cell ran, per-run calibration of work loops) is the run's, not the
   code's, and is removed before the floor is applied (`remove_common_shift`, from 5 variants of a
   cell); compare warns with its size. A change of the code common to all of them needs runs
   (assumption 1). A variant's floor is its own largest A/A change, but never below the median of
   its shape's variants' floors (`NoiseFloors.floor_for`).
3. Timings are positive and multiplicative: when every value is > 0 the shift is estimated on
   log values (a ratio); otherwise on raw values, relative to |median(BASE)|.
4. Virtual-time (`sim`) cells are deterministic: seed by seed, any difference is a change, and no
   statistics are needed. Only when the two sides ran different seeds are the seeds compared like
   repetitions (they are independent samples; no floor is needed).
5. No distribution is assumed: a two-sided Mann–Whitney U test (exact distribution when there are
   no ties and both sides have at most `EXACT_MAX` values; otherwise the normal approximation with
   tie and continuity corrections), the Hodges–Lehmann shift with its distribution-free (Moses)
   95 % interval.
6. Many cells are tested at once: Benjamini–Hochberg at false discovery rate `Q` over every tested
   live cell of the comparison (and, separately, every tested sim cell). The family is the data,
   not a choice: the gate and `compare` given the same folders test the same family.
7. A change must also be large enough to matter: `min_effect` (default 1 %; a gated hardware
   metric's `tolerance` from results/thresholds.json where one applies).

The verdict (`decide`): `too few repetitions` when a side has fewer than `MIN_REPS` values (run
medians), or fewer than `MIN_SEPARATED` repetitions; otherwise, with p adjusted by BH,
- run-level unit: worse / better / changed when p_adj ≤ Q and |shift| ≥ min_effect;
- repetition unit with a floor F: when the whole 95 % interval lies beyond max(min_effect, F) on
  one side. The repetitions' p does not decide here: their test cannot see run-to-run noise, which
  is what the floor bounds; the false alarms are controlled by the floor (the largest change of
  that shape in A/A pairs, which a same-binary cell rarely crosses with its whole interval), and
  measured on held-out A/A pairs (tests/test_verdicts.py), not by BH;
- repetition unit with 3 or 4 values a side (the default bench-atomics run has 3): no rank test
  can reach significance (3 v 3: p ≥ 0.1), so instead every pairwise difference must lie beyond
  max(min_effect, F) (complete separation by more than the floor; the "interval" shown is the full
  range of the differences, a 90 % interval for 3 v 3);
- repetition unit without a floor: `inconclusive` where the repetitions alone would decide as in
  the run-level case, otherwise `no detectable change`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

RULE = "pb-verdict-3"
MIN_RUNS = 5  # runs a side for the run-level unit (5 v 5 is the smallest where a 95 % interval exists)
MIN_REPS = 5  # values a side for a rank test
MIN_SEPARATED = 3  # fewer (3 or 4) a side, against a floor: only complete separation beyond it counts
Q = 0.05  # Benjamini–Hochberg false discovery rate
EXACT_MAX = 25  # exact Mann–Whitney distribution up to this many values a side (no ties)
Z975 = 1.959963984540054  # the standard normal's 97.5 % quantile (two-sided 95 % interval)
DEFAULT_MIN_EFFECT = 0.01
NOISE_FLOOR_FILE = Path(__file__).resolve().parents[2] / "results" / "noise-floor.json"

BETTER, WORSE, SAME, CHANGED, FEW, INCONCLUSIVE, CONDITION = (
    "better",
    "worse",
    "no detectable change",
    "changed",
    "too few repetitions",
    "inconclusive",
    "host condition",
)
RUNS, REPS, SEEDS, DETERMINISTIC = "runs", "repetitions", "seeds", "deterministic"


# ---------------------------------------------------------------- Mann–Whitney, Hodges–Lehmann


@cache
def _u_counts(m: int, n: int) -> tuple[float, ...]:
    """Number of arrangements giving U = 0 … m·n (no ties), as exact float counts."""
    # f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u); counts stay below 2^53 for m + n ≤ 50.
    if m == 0 or n == 0:
        return (1.0,)
    a, b = _u_counts(m - 1, n), _u_counts(m, n - 1)
    out = [0.0] * (m * n + 1)
    for u, c in enumerate(a):
        out[u + n] += c
    for u, c in enumerate(b):
        out[u] += c
    return tuple(out)


def _cdf(m: int, n: int, u: int) -> float:
    """P(U ≤ u) under H0, exact; summed from 0 upward (the Swift twin sums in the same order)."""
    counts = _u_counts(m, n)
    total = 0.0
    for c in counts:
        total += c
    below = 0.0
    for i in range(min(u, m * n) + 1):
        below += counts[i]
    return below / total


def _ranks(values: list[float]) -> tuple[list[float], float]:
    """Average ranks (1-based) and Σ(t³ − t) over tie groups."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    ties = 0.0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j + 2) / 2
        t = j - i + 1
        ties += t * t * t - t
        i = j + 1
    return ranks, ties


def mann_whitney(base: list[float], new: list[float]) -> tuple[float, float]:
    """(U of NEW, two-sided p-value)."""
    m, n = len(new), len(base)
    ranks, ties = _ranks(list(new) + list(base))
    r_new = 0.0
    for r in ranks[:m]:
        r_new += r
    u = r_new - m * (m + 1) / 2
    if ties == 0 and m <= EXACT_MAX and n <= EXACT_MAX:
        k = round(u)
        low = _cdf(m, n, k)
        high = 1.0 - _cdf(m, n, k - 1) if k > 0 else 1.0
        return u, min(1.0, 2 * min(low, high))
    total = m + n
    variance = m * n / 12 * ((total + 1) - ties / (total * (total - 1)))
    if variance <= 0:
        return u, 1.0
    z = (abs(u - m * n / 2) - 0.5) / math.sqrt(variance)
    if z <= 0:
        return u, 1.0
    return u, min(1.0, math.erfc(z / math.sqrt(2)))


def _critical(m: int, n: int) -> int:
    """Largest c with P(U ≤ c) ≤ 2.5 % (−1 when none: too few values for a 95 % interval)."""
    if m <= EXACT_MAX and n <= EXACT_MAX:
        c = -1
        while c + 1 <= m * n and _cdf(m, n, c + 1) <= 0.025:
            c += 1
        return c
    return max(-1, math.floor(m * n / 2 - Z975 * math.sqrt(m * n * (m + n + 1) / 12)))


def hodges_lehmann(base: list[float], new: list[float]) -> tuple[float, float | None, float | None]:
    """Shift NEW − BASE: the median of all pairwise differences, and its Moses 95 % interval."""
    diffs = sorted(b_new - b_old for b_new in new for b_old in base)
    size = len(diffs)
    estimate = diffs[size // 2] if size % 2 else (diffs[size // 2 - 1] + diffs[size // 2]) / 2
    c = _critical(len(new), len(base))
    if c < 0:
        return estimate, None, None
    return estimate, diffs[c], diffs[size - 1 - c]


def median(values: list[float]) -> float:
    s = sorted(values)
    k = len(s)
    return s[k // 2] if k % 2 else (s[k // 2 - 1] + s[k // 2]) / 2


def benjamini_hochberg(pvalues: list[float]) -> list[float]:
    """Adjusted p-values (step-up), in the input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


# ---------------------------------------------------------------- one cell


@dataclass
class Evidence:
    """What one cell's test saw; `decide` turns it (with the family's BH adjustment) into a verdict."""

    unit: str  # runs / repetitions / seeds / deterministic
    n_base: int
    n_new: int
    runs_base: int
    runs_new: int
    log_scale: bool
    base_median: float
    new_median: float
    change: float | None = None  # relative shift (HL), e.g. 0.25 = +25 %; the common shift removed where noted
    median_change: float | None = None  # new median against base median, relative: the change printed
    spread: float | None = None  # the wider side's repetitions, max/min − 1 (log-scale repetition cells)
    low: float | None = None  # its 95 % interval, relative
    high: float | None = None
    p: float | None = None
    p_adjusted: float | None = None
    floor: float | None = None
    common: float | None = (
        None  # the cell's common shift (over its variants) removed from change/low/high (one run a side)
    )
    min_effect: float = DEFAULT_MIN_EFFECT
    bar: float | None = None  # what the whole interval had to clear (repetitions against a floor)
    noisier: str = ""  # why a side ran noisier than its floor was learned at (then inconclusive)
    verdict: str = SAME
    why: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def tested(self) -> bool:
        return self.p is not None


def median_change(base_median: float, new_median: float) -> float | None:
    """NEW's median against BASE's, relative to |BASE's|: the change a reader checks against the two
    medians printed beside it, so its sign always agrees with them (None from a zero median)."""
    if not math.isfinite(base_median) or not math.isfinite(new_median):
        return None
    if new_median == base_median:
        return 0.0
    if base_median == 0:
        return None
    return (new_median - base_median) / abs(base_median)


def _relative(shift: float | None, log_scale: bool, base_median: float) -> float | None:
    if shift is None:
        return None
    if log_scale:
        return math.expm1(shift)
    if base_median == 0:
        return None
    return shift / abs(base_median)


def evidence(
    base_runs: dict[str, list[float]],
    new_runs: dict[str, list[float]],
    mode: str,
    base_seeds: list | None = None,
    new_seeds: list | None = None,
) -> Evidence:
    """The cell's test. `*_runs`: finite values per run id. Sim cells pass their seeds (paired)."""
    base_all = [v for vs in base_runs.values() for v in vs]
    new_all = [v for vs in new_runs.values() for v in vs]
    runs_b = sum(1 for vs in base_runs.values() if vs)
    runs_n = sum(1 for vs in new_runs.values() if vs)
    if (
        mode == "sim"
        and base_seeds is not None
        and new_seeds is not None
        and sorted(base_seeds) == sorted(new_seeds)
        and len(set(base_seeds)) == len(base_seeds)
    ):
        b = dict(zip(base_seeds, base_all, strict=False))
        n = dict(zip(new_seeds, new_all, strict=False))
        ev = Evidence(
            DETERMINISTIC, len(base_all), len(new_all), runs_b, runs_n, False, median(base_all), median(new_all)
        )
        diff = [s for s in b if b[s] != n[s]]
        ev.change = 0.0 if not diff else _relative(median(new_all) - median(base_all), False, median(base_all))
        ev.median_change = median_change(ev.base_median, ev.new_median)
        ev.notes.append(f"{len(diff)} of {len(b)} seeds differ" if diff else "")
        ev.verdict = CHANGED if diff else SAME
        return ev
    if mode != "sim" and runs_b >= MIN_RUNS and runs_n >= MIN_RUNS:
        unit = RUNS
        base = [median(vs) for vs in base_runs.values() if vs]
        new = [median(vs) for vs in new_runs.values() if vs]
    else:
        unit = SEEDS if mode == "sim" else REPS
        base, new = base_all, new_all
    log_scale = all(v > 0 for v in base) and all(v > 0 for v in new)
    ev = Evidence(unit, len(base), len(new), runs_b, runs_n, log_scale, median(base), median(new))
    ev.median_change = median_change(ev.base_median, ev.new_median)
    if unit == REPS and log_scale and MIN_SEPARATED <= min(len(base), len(new)) < MIN_REPS:  # the full-range case
        ev.spread = max(max(base) / min(base), max(new) / min(new)) - 1
    smallest = MIN_SEPARATED if unit == REPS else MIN_REPS
    if len(base) < smallest or len(new) < smallest:
        ev.verdict = FEW
        return ev
    if sorted(base) == sorted(new):
        ev.change, ev.p = 0.0, 1.0
        return ev
    xb = [math.log(v) for v in base] if log_scale else base
    xn = [math.log(v) for v in new] if log_scale else new
    _, ev.p = mann_whitney(xb, xn)
    shift, low, high = hodges_lehmann(xb, xn)
    if len(base) < MIN_REPS or len(new) < MIN_REPS:  # 3 or 4 a side: the full range of the differences
        low, high = min(xn) - max(xb), max(xn) - min(xb)
    ev.change = _relative(shift, log_scale, ev.base_median)
    ev.low = _relative(low, log_scale, ev.base_median)
    ev.high = _relative(high, log_scale, ev.base_median)
    return ev


def decide(
    ev: Evidence,
    direction: str,
    min_effect: float = DEFAULT_MIN_EFFECT,
    floor: float | None = None,
    noisier: str = "",
) -> Evidence:
    """The verdict of a tested cell once `ev.p_adjusted` is set (see the module's rule).

    `noisier` (from `noisier_than_floor`) says why a side ran noisier than the floor's A/A pairs
    did; a cell judged against that floor is then inconclusive where it would have been flagged,
    since the floor no longer bounds its noise."""
    from .directions import HIGHER, HOST, LOWER

    ev.min_effect = min_effect
    if direction == HOST:  # the machine's, not the code's: a condition beside the verdicts, never judged
        ev.verdict = CONDITION
        ev.why = _why(ev)
        return ev
    if ev.unit == DETERMINISTIC or ev.verdict == FEW or not ev.tested:
        ev.why = _why(ev)
        if ev.unit == DETERMINISTIC and ev.verdict == CHANGED:  # a seed differs: changed, directed by the medians
            ev.verdict = _directed(ev.new_median - ev.base_median, direction, HIGHER, LOWER)
            ev.verdict = CHANGED if ev.verdict == SAME else ev.verdict
            ev.why = _why(ev)
        return ev
    separated = ev.n_base < MIN_REPS or ev.n_new < MIN_REPS  # too few for any p to matter
    # Against a floor the floor is the control (a same-binary cell crosses the largest A/A change of
    # its shape rarely, and must cross it with its whole interval); the repetitions' own test knows
    # nothing of run-to-run noise, so its p does not decide there.
    significant = (
        separated or (ev.unit == REPS and floor is not None) or (ev.p_adjusted is not None and ev.p_adjusted <= Q)
    )
    change = ev.change
    if ev.unit == REPS:
        ev.floor = floor
    if change is None:  # from 0: no relative size; a significant test decides (never 3 or 4 a side)
        large = significant and not separated
    elif ev.unit == REPS and (floor is not None or separated):
        # With 3 or 4 a side the bar widens to the cell's own repetition spread: a run whose
        # repetitions scatter more than the floor ran noisier than the A/A pairs the floor was
        # learned from. (From 5 a side the Moses interval already carries the spread.)
        ev.bar = max(min_effect, floor or 0.0, ev.spread or 0.0)
        large = ev.low is not None and ev.high is not None and (ev.low > ev.bar or ev.high < -ev.bar)
    else:
        large = abs(change) >= min_effect
    delta = ev.new_median - ev.base_median if change is None else change
    if not (significant and large):
        ev.verdict = SAME
    elif ev.unit == REPS and floor is None:
        ev.verdict = INCONCLUSIVE
    elif ev.unit == REPS and noisier:
        ev.verdict, ev.noisier = INCONCLUSIVE, noisier
    elif ev.median_change is not None and delta * ev.median_change <= 0:
        # The estimate (after the common shift) and the medians disagree in direction: the verdict
        # would contradict the numbers printed under it, so it is not given.
        ev.verdict = INCONCLUSIVE
    else:
        ev.verdict = _directed(delta, direction, HIGHER, LOWER)
    ev.why = _why(ev)
    return ev


def noisier_than_floor(
    loads: tuple[float | None, float | None],
    learned_load: float | None,
    probes: tuple[float | None, float | None] = (None, None),
    learned_probe: float | None = None,
    several_threads: bool = False,
) -> str:
    """Why a side ran noisier than the floor was learned at, or "" (VerdictRule.noisierThanFloor).

    `loads`: each side's highest 1-minute load average per logical core (start and end of its runs);
    `probes`: each side's lowest co-scheduling probe fraction (two threads running at once). The
    floor vouches for the noise of runs like the A/A pairs it was learned from: a side at a higher
    load per core, or (for a cell of several threads) whose threads ran together less often than in
    those pairs, is outside what it saw. A floor that does not record its conditions vouches for
    nothing beyond itself, and no side is called noisier than it."""
    reasons = []
    for label, load in zip(("BASE", "NEW"), loads, strict=True):
        if load is not None and learned_load is not None and load > learned_load * LOAD_MARGIN:
            reasons.append(f"{label} ran at load {load:.2f} per core, the floor was learned at ≤ {learned_load:.2f}")
    for label, probe in zip(("BASE", "NEW"), probes, strict=True) if several_threads else ():
        if probe is not None and learned_probe is not None and probe < learned_probe - PROBE_MARGIN:
            reasons.append(
                f"{label}'s threads ran together {probe:.0%} of its co-scheduling probe, "
                f"{learned_probe:.0%} when the floor was learned"
            )
    return "; ".join(reasons)


LOAD_MARGIN = 1.25  # a side's load per core may exceed the floor's by this factor (load averages lag)
PROBE_MARGIN = 0.25  # and its probe fraction fall this far below (the probe's own scatter)


def _directed(delta: float, direction: str, higher: str, lower: str) -> str:
    if direction == "host_condition":
        return CONDITION
    if delta == 0:
        return SAME
    if direction not in (higher, lower):
        return CHANGED
    return BETTER if (delta > 0) == (direction == higher) else WORSE


def _why(ev: Evidence) -> str:
    if ev.verdict == CONDITION:
        moved = "" if ev.median_change is None else f" (median {ev.median_change:+.1%})"
        return f"describes the host during the run, not the code: a condition beside the verdicts{moved}, never judged"
    if ev.unit == DETERMINISTIC:
        return (
            f"deterministic (virtual time): {ev.notes[0] if ev.notes and ev.notes[0] else 'every seed equal'}"
            f" ({ev.n_base} seeds a side)"
        )
    if ev.verdict == FEW:
        what = "run medians" if ev.unit == RUNS else ev.unit
        return f"too few {what}: {ev.n_base} / {ev.n_new}, need {MIN_REPS} a side"
    unit = {
        RUNS: "run medians (one per run)",
        REPS: "repetitions of one run a side"
        if max(ev.runs_base, ev.runs_new) <= 1
        else f"repetitions of {ev.runs_base} / {ev.runs_new} runs (fewer than {MIN_RUNS} a side)",
        SEEDS: "seeds (virtual time)",
    }[ev.unit]
    if ev.p is None:
        return f"{ev.n_base} / {ev.n_new} {unit}"
    parts = [
        f"{ev.n_base} / {ev.n_new} {unit}",
        f"Mann–Whitney p = {ev.p:.2g}, BH-adjusted {ev.p_adjusted:.2g} (Q = {Q})",
    ]
    if ev.n_base < MIN_REPS or ev.n_new < MIN_REPS:
        parts[1] = (
            f"fewer than {MIN_REPS} a side: no test can decide; every NEW value must lie beyond every "
            "BASE value by more than the bar (the interval is the full range of the differences)"
        )
    if ev.common is not None:
        parts.append(
            f"after removing the cell's common shift of {ev.common:+.1%} (median of its variants: the run's, "
            "not the code's)"
        )
    if ev.unit == REPS:
        if ev.floor is None:
            parts.append(
                "no noise floor for this host and metric: run interleaved / more runs"
                if ev.verdict == INCONCLUSIVE
                else "no noise floor known"
            )
        else:
            parts.append(
                f"the whole interval must clear {ev.bar if ev.bar is not None else ev.floor:.1%}: the largest of min "
                f"effect {ev.min_effect:.0%}, noise floor {ev.floor:.1%} and the repetitions' spread "
                + ("–" if ev.spread is None else f"{ev.spread:.1%}")
                + "; the repetitions' p does not decide against a floor"
            )
            if ev.noisier:
                parts.append(f"inconclusive: a side ran noisier than the floor was learned at ({ev.noisier})")
    else:
        parts.append(f"min effect {ev.min_effect:.0%}")
    if (
        ev.verdict == INCONCLUSIVE
        and (ev.unit != REPS or ev.floor is not None)
        and not ev.noisier
        and ev.change is not None
    ):
        parts.append(
            f"inconclusive: the medians moved {ev.median_change:+.1%}, against the estimate's direction "
            f"{ev.change:+.1%}"
        )
    return "; ".join(parts)


def adjust(cells: list[Evidence]) -> None:
    """Benjamini–Hochberg over the tested cells of one family, in place."""
    tested = [c for c in cells if c.tested]
    for c, adj in zip(tested, benjamini_hochberg([c.p for c in tested if c.p is not None]), strict=True):
        c.p_adjusted = adj


MIN_COMMON = 5  # variants of one cell for its common shift to be estimated and removed


def remove_common_shift(groups: dict) -> None:
    """One run a side: per metric and cell (scenario and factors), the median change of its variants
    is the run's shift (the host's load while that cell ran, the per-run calibration of the work
    loops), not the code's; removes it, in place. The callers group by cell: a cell's variants run
    interleaved within seconds, so a load burst moves them together (on the default bench-atomics
    run, every variant of one cell's wall-clock ns/op doubled between two A runs while the same
    shape's other scenarios stayed).

    Only repetition-unit cells on log scale count and are corrected, and only in groups of at least
    `MIN_COMMON` such cells; the median is robust to a minority of variants that really changed."""
    for cells in groups.values():
        usable = [e for e in cells if e.unit == REPS and e.log_scale and e.tested and e.change is not None]
        if len(usable) < MIN_COMMON:
            continue
        common = median([math.log1p(e.change) for e in usable])
        for e in usable:
            e.common = math.expm1(common)
            e.change = math.expm1(math.log1p(e.change) - common)
            if e.low is not None and e.high is not None:
                e.low = math.expm1(math.log1p(e.low) - common)
                e.high = math.expm1(math.log1p(e.high) - common)


# ---------------------------------------------------------------- noise floors


VARIANT_MARKER = "|variant="
LEARNED_AT = ("load_per_core", "co_scheduled")
FLOOR_VERSION = 2  # noise floor file format (VerdictRule.floorVersion): 2 = one floor per variant of a shape
FLOOR_VERSIONS = {
    1: "one floor per cell shape over every variant, as in files without a version",
    2: "one floor per variant of a cell shape",
}


def floor_key(fingerprint: str | None, workload: str, metric: str, factors: dict, variant: str | None = None) -> str:
    """Floors are per CPU, workload, metric, cell shape (the factors) and, from version 2, variant.

    Per variant because a shape's floor was the largest A/A change over all its variants, so one
    noisy variant (dispatch-queue's repetitions) raised it for every other one and hid a 25 %
    slowdown of pthread-mutex. Scenarios still share a floor (a variant's cells of one
    shape across operations)."""
    shape = ",".join(f"{k}={factors[k]}" for k in sorted(factors))
    key = f"{fingerprint}|{workload}|{metric}|{shape}"
    return key if variant is None else f"{key}{VARIANT_MARKER}{variant}"


@dataclass
class NoiseFloors:
    """Largest same-binary A/A change per key, with how many cells and pairs taught it."""

    floors: dict[str, dict] = field(default_factory=dict)
    path: Path | None = None
    version: int = FLOOR_VERSION
    # How noisy the learning pairs ran (`noisier_than_floor`): the highest 1-minute load per logical
    # core and the lowest co-scheduling probe fraction of their runs; absent in older files.
    learned_at: dict[str, float] = field(default_factory=dict)

    @staticmethod
    def load(path: Path | None, required: bool = False) -> NoiseFloors:
        """A missing default file is no floors; a missing file the user named (`required`) is an
        input error, since every verdict would silently turn inconclusive (VerdictRule.loadFloors)."""
        from .results import InputError

        if path is None or not Path(path).exists():
            if required and path is not None:
                raise InputError(f"noise floor file {path}: no such file")
            return NoiseFloors(path=Path(path) if path else None)
        try:
            document = json.loads(Path(path).read_text(encoding="utf-8"))
            floors = {e["key"]: e for e in document["floors"]}
            version = document.get("version", 1)
            learned_at = {
                k: float(v)
                for k, v in (document.get("learned_at") or {}).items()
                if k in LEARNED_AT and isinstance(v, (int, float)) and not isinstance(v, bool)
            }
            for key, entry in floors.items():
                floor = entry["floor"]
                if not isinstance(key, str) or isinstance(floor, bool) or not isinstance(floor, (int, float)):
                    raise ValueError(f"entry {key!r}: a key must be text and its floor a number")
        except KeyError as error:
            raise InputError(f"noise floor file {path}: unreadable (missing key {error})") from error
        except (OSError, ValueError, TypeError, AttributeError) as error:
            raise InputError(f"noise floor file {path}: unreadable ({error})") from error
        if not isinstance(version, int) or isinstance(version, bool) or version not in FLOOR_VERSIONS:
            raise InputError(
                f"noise floor file {path}: format version {version}, this version reads 1 to {FLOOR_VERSION}"
            )
        return NoiseFloors(floors, Path(path), version, learned_at)

    def floor(self, key: str) -> float | None:
        entry = self.floors.get(key)
        return None if entry is None else float(entry["floor"])

    def floor_for(
        self, fingerprint: str | None, workload: str, metric: str, factors: dict, variant: str
    ) -> float | None:
        """A cell's floor: its variant's (version 2), else its shape's (a version-1 file, whose floors
        hold for every variant of the shape). VerdictRule.floor(in:…) in Swift.

        A variant's floor is never below the median of its shape's variant floors: a variant's own
        largest A/A change comes from few cells (its scenarios × the pairs) and can undershoot its
        noise, while the median over variants is robust to one noisy variant — the reason floors
        are per variant. A variant never learned has no floor."""
        shape = floor_key(fingerprint, workload, metric, factors)
        own = self.floor(floor_key(fingerprint, workload, metric, factors, variant))
        if own is None:
            return self.floor(shape)
        return max(own, self.shape_medians().get(shape, own))

    def shape_medians(self) -> dict[str, float]:
        """Per cell shape, the median of its variants' floors (version 2 keys only)."""
        by_shape: dict[str, list[float]] = {}
        for key, entry in self.floors.items():
            shape, marker, _ = key.partition(VARIANT_MARKER)
            if marker:
                by_shape.setdefault(shape, []).append(float(entry["floor"]))
        return {shape: median(values) for shape, values in by_shape.items()}

    def learned_under(self, load_per_core: float | None, co_scheduled: float | None) -> None:
        """Widens the conditions the floors vouch for to one more learning pair's runs."""
        if load_per_core is not None:
            self.learned_at["load_per_core"] = max(self.learned_at.get("load_per_core", 0.0), load_per_core)
        if co_scheduled is not None:
            self.learned_at["co_scheduled"] = min(self.learned_at.get("co_scheduled", 1.0), co_scheduled)

    def learn(self, key: str, changes: list[float], pair: str) -> None:
        """Adds one A/A pair's changes (relative HL shifts of every cell with this key)."""
        if self.version != FLOOR_VERSION:
            from .results import InputError

            raise InputError(
                f"noise floor file {self.path}: format version {self.version} ({FLOOR_VERSIONS[self.version]}); "
                f"learn into a new file (version {FLOOR_VERSION}: {FLOOR_VERSIONS[FLOOR_VERSION]})"
            )
        largest = max(abs(c) for c in changes)
        entry = self.floors.setdefault(key, {"key": key, "floor": 0.0, "cells": 0, "pairs": []})
        entry["floor"] = max(entry["floor"], largest)
        entry["cells"] += len(changes)
        if pair not in entry["pairs"]:
            entry["pairs"].append(pair)

    def save(self, path: Path) -> None:
        document = {
            "rule": RULE,
            "version": FLOOR_VERSION,
            "about": "noise floors: the largest relative change (Hodges–Lehmann shift of "
            "repetitions, after the cell's common shift) that same-binary A/A run pairs showed, per CPU "
            "fingerprint, workload, metric, cell shape and variant (version 2; version 1 files, without "
            "`version`, hold one floor per shape over every variant and are still read); learned with "
            "`pb-analysis compare A1 A2 --learn-noise-floor FILE`",
            "floors": [self.floors[k] for k in sorted(self.floors)],
        }
        if self.learned_at:
            document["learned_at"] = {k: self.learned_at[k] for k in sorted(self.learned_at)}
        Path(path).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def fingerprint(host: dict) -> str | None:
    """The CPU identity bench-gate matches on (CPUIdentity.description in Swift)."""
    keys = ("cpu_vendor", "cpu_family", "cpu_model_number", "cpu_stepping", "cpu_microcode")
    if not all(k in host and host[k] is not None for k in keys):
        return None
    return (
        f"{host['cpu_vendor']} family {host['cpu_family']} model {host['cpu_model_number']} "
        f"stepping {host['cpu_stepping']} microcode {host['cpu_microcode']}"
    )
