"""`history`: the nightly's memory. Runs go into SQLite (default) or PostgreSQL; Apache Otava finds change points.

Why: a single baseline misses a slow drift made of steps each below the gate's tolerance (two
+8 % steps pass a 15 % gate and add up to +17 %); a history of every run does not.

- `ingest`: every row of every run of the given results folders, with the run's metadata and
  parameters. A run already stored is skipped (ingesting the same folder twice is harmless).
- `changes`: per series — (workload, scenario, variant, mode, factors) × metric — one point per
  run (the median over its seeds / repetitions), in the order the runs were created; Otava's
  E-divisive means (the Hunter variant: sliding windows, t-test merge) finds the change points.
  Each is reported with the first run after the change and its size (mean after / mean before − 1).
- `plot`: trend charts (median per run with the min–max band over repetitions) with the change
  points marked.

The database is a plain two-table schema, so it can be read with any SQL client:

    runs(run_id PRIMARY KEY, workload, created_utc, host, git_commit, git_dirty, build_configuration,
         swift_version, parameters JSON, ingested_utc)
    measurements(run_id, workload, scenario, variant, mode, factors JSON, metric, unit, seed,
                 repetition, host, value)
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import time
import urllib.parse
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from .directions import HIGHER, HOST_CONDITIONS, LOWER, direction
from .export import epoch_ns
from .markup import md_table
from .results import Cell, InputError, ResultsFolder, factor_text


def default_db() -> Path:
    """Where the history lives unless `--db` says otherwise: the user's data directory
    ($XDG_DATA_HOME/patternbench/history.sqlite, by default ~/.local/share/patternbench/…), never
    the checkout, which no command writes into unless told to."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = (
        Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    )  # relative: ignored, as the spec says
    return root / "patternbench" / "history.sqlite"


# Metrics that describe the host during a run rather than the code under test (directions.py): a
# change in them explains other changes and is drawn for context, without a better/worse verdict.
HEALTH_METRICS = HOST_CONDITIONS

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS runs (
        run_id TEXT PRIMARY KEY, workload TEXT NOT NULL, created_utc TEXT NOT NULL, created_ns BIGINT NOT NULL,
        host TEXT, git_commit TEXT, git_dirty TEXT, build_configuration TEXT, swift_version TEXT,
        parameters TEXT, ingested_utc TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS measurements (
        run_id TEXT NOT NULL, workload TEXT NOT NULL, scenario TEXT NOT NULL, variant TEXT NOT NULL,
        mode TEXT NOT NULL, factors TEXT NOT NULL, metric TEXT NOT NULL, unit TEXT NOT NULL,
        seed BIGINT NOT NULL, repetition BIGINT NOT NULL, host TEXT NOT NULL, value DOUBLE PRECISION)""",
    "CREATE INDEX IF NOT EXISTS measurements_series ON measurements (workload, scenario, variant, mode, factors, metric)",
    "CREATE INDEX IF NOT EXISTS measurements_run ON measurements (run_id)",
]


# ---------------------------------------------------------------- storage


class Store:
    """One DB-API connection, SQLite or PostgreSQL (pg8000), behind the same few statements."""

    def __init__(self, target: str | Path | None, create: bool = True):
        """`create`: make the SQLite file when it does not exist (ingest); reading commands pass
        False and get a one-line error instead of an empty database left behind."""
        self.target = str(target or default_db())
        if self.target.startswith(("postgresql://", "postgres://")):
            self.kind = "postgresql"
            self.connection = _connect_postgres(self.target)
            self.marker = "%s"
        else:
            self.kind = "sqlite"
            path = Path(self.target)
            if path.exists() and path.is_dir():
                raise InputError(f"--db {path} is a folder; give a file (e.g. {path / 'history.sqlite'})")
            if not create and not path.exists():
                raise InputError(
                    f"{path}: no history there yet; run `pb-analysis history ingest RESULTS` first"
                    + ("" if target else " (or give --db)")
                )
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self.connection = sqlite3.connect(path)
                self.connection.execute("PRAGMA journal_mode=WAL")
            except sqlite3.DatabaseError as error:
                raise InputError(f"--db {path}: not a usable SQLite database ({error})") from error
            self.marker = "?"
        cursor = self.connection.cursor()
        try:
            for statement in SCHEMA:
                cursor.execute(statement)
            self.connection.commit()
        except Exception as error:  # sqlite3.DatabaseError, pg8000's DatabaseError
            raise InputError(
                f"--db {self.describe()}: cannot create the history tables ({_one_line(error)})"
            ) from error

    def describe(self) -> str:
        if self.kind == "postgresql":
            parts = urllib.parse.urlsplit(self.target)
            return f"postgresql://{parts.hostname}:{parts.port or 5432}{parts.path}"  # never the password
        return self.target

    def sql(self, text: str) -> str:
        return text.replace("?", self.marker)

    def query(self, text: str, params: tuple = ()) -> list[tuple]:
        cursor = self.connection.cursor()
        cursor.execute(self.sql(text), params)
        return cursor.fetchall()

    def close(self) -> None:
        self.connection.close()


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:300]


def _connect_postgres(url: str):
    try:
        import pg8000.dbapi
    except ImportError as error:
        raise InputError("PostgreSQL needs the pg8000 package: pip install -r analysis/requirements.txt") from error
    parts = urllib.parse.urlsplit(url)
    database = parts.path.lstrip("/") or "postgres"
    query = urllib.parse.parse_qs(parts.query)
    host = parts.hostname or query.get("host", ["127.0.0.1"])[0]
    try:
        return pg8000.dbapi.connect(
            user=urllib.parse.unquote(parts.username or "postgres"),
            password=urllib.parse.unquote(parts.password) if parts.password else None,
            host=host,
            port=parts.port or 5432,
            database=database,
            timeout=30,
        )
    except Exception as error:
        safe = f"postgresql://{host}:{parts.port or 5432}/{database}"
        raise InputError(f"--db {safe}: cannot connect ({_one_line(error)})") from error


# ---------------------------------------------------------------- ingest

INSERT_BATCH = 500  # rows per INSERT (12 parameters each; both SQLite and PostgreSQL allow 32,766)


@dataclass
class IngestResult:
    runs_added: list[str]
    runs_skipped: list[str]
    rows_added: int


def ingest(store: Store, folders: list[ResultsFolder]) -> IngestResult:
    known = {r[0] for r in store.query("SELECT run_id FROM runs")}
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    added, skipped, rows = [], [], 0
    cursor = store.connection.cursor()
    insert_run = store.sql("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    row_marks = "(" + ", ".join(["?"] * 12) + ")"
    for folder in folders:
        for workload, run in folder.runs.items():
            where = str(run.folder / f"{workload}.json")
            factors = run.factor_names
            table = run.table
            for source in run.sources():
                run_id = source["run_id"]
                if run_id in known:
                    skipped.append(run_id)
                    continue
                dirty = source.get("git_dirty")
                cursor.execute(
                    insert_run,
                    (
                        run_id,
                        workload,
                        source.get("created_utc"),
                        epoch_ns(source.get("created_utc"), where),
                        source.get("host"),
                        source.get("git_commit"),
                        None if dirty is None else json.dumps(dirty),
                        source.get("build_configuration"),
                        source.get("swift_version"),
                        json.dumps(source.get("parameters", {}), sort_keys=True),
                        now,
                    ),
                )
                part = table[table["run_id"] == run_id]
                factor_json = [
                    json.dumps(
                        {f: factor_text(v) for f, v in zip(factors, values, strict=True) if factor_text(v) != ""},
                        sort_keys=True,
                    )
                    for values in (zip(*[part[f] for f in factors], strict=True) if factors else [()] * len(part))
                ]
                values = [None if not math.isfinite(v) else float(v) for v in part["value"]]
                batch = list(
                    zip(
                        [run_id] * len(part),
                        [workload] * len(part),
                        part["scenario"],
                        part["variant"],
                        part["mode"],
                        factor_json,
                        part["metric"],
                        part["unit"],
                        part["seed"].astype(int).tolist(),
                        part["repetition"].astype(int).tolist(),
                        part["host"],
                        values,
                        strict=True,
                    )
                )
                for start in range(0, len(batch), INSERT_BATCH):  # multi-row INSERTs: one round trip per batch
                    chunk = batch[start : start + INSERT_BATCH]
                    cursor.execute(
                        store.sql("INSERT INTO measurements VALUES " + ", ".join([row_marks] * len(chunk))),
                        tuple(v for row in chunk for v in row),
                    )
                rows += len(batch)
                known.add(run_id)
                added.append(run_id)
    store.connection.commit()
    return IngestResult(added, skipped, rows)


# ---------------------------------------------------------------- change points

SERIES_KEYS = ["workload", "scenario", "variant", "mode", "factors"]


@dataclass
class Change(Cell):
    direction: str
    run_id: str  # the first run after the change
    created_utc: str
    previous_run_id: str  # the last run before it
    index: int  # position of run_id in the series (0 = the oldest run)
    runs_in_series: int
    change_pct: float  # mean after / mean before − 1, in %
    mean_before: float
    mean_after: float
    pvalue: float
    verdict: str  # the one rule's (verdicts.py): better / worse / changed / no detectable change / …
    runs_after: int  # runs from the change on; fewer than Options.confirm_runs: tentative
    confirmed: bool
    why: str = ""  # the rule's evidence: runs a side, p, BH-adjusted p, interval
    rule_change_pct: float | None = None  # Hodges–Lehmann shift of the run medians, in %
    ci_low_pct: float | None = None
    ci_high_pct: float | None = None


@dataclass
class Options:
    """Otava's window (its default); significance and minimum size stricter than Otava's defaults
    (0.001, 0): on the synthetic history (docs/analysis.md) these keep +8 % steps in a 1 %-noise
    series and drop the false alarms that heavy-tailed counters (context switches) raise at 0.001."""

    window_len: int = 50
    max_pvalue: float = 1e-5
    min_magnitude: float = 0.03
    confirm_runs: int = 3  # a change point with fewer runs after it is listed as tentative


def series_frame(store: Store, workload: str | None = None, metric: str | None = None) -> pd.DataFrame:
    """Per run and series: the median, min, max and count over the run's seeds / repetitions."""
    where, params = [], []
    if workload:
        where.append("m.workload = ?")
        params.append(workload)
    if metric:
        where.append("m.metric = ?")
        params.append(metric)
    text = (
        "SELECT m.workload, m.scenario, m.variant, m.mode, m.factors, m.metric, m.unit, m.run_id, r.created_ns, "
        "r.created_utc, m.value FROM measurements m JOIN runs r ON r.run_id = m.run_id"
        + (" WHERE " + " AND ".join(where) if where else "")
    )
    cursor = store.connection.cursor()
    cursor.execute(store.sql(text), tuple(params))
    columns = [
        *SERIES_KEYS,
        "metric",
        "unit",
        "run_id",
        "created_ns",
        "created_utc",
        "value",
    ]
    frame = pd.DataFrame(cursor.fetchall(), columns=columns)
    if frame.empty:
        return frame
    frame["value"] = frame["value"].astype("float64")
    frame["created_ns"] = frame["created_ns"].astype("int64")
    grouped = frame.groupby([*SERIES_KEYS, "metric", "unit", "run_id", "created_ns", "created_utc"], sort=False)[
        "value"
    ]
    out = grouped.agg(["median", "min", "max", "count"]).reset_index()
    return out.sort_values(["created_ns", "run_id"], kind="stable")


def changes(
    store: Store, options: Options | None = None, workload: str | None = None, metric: str | None = None
) -> tuple[list[Change], dict]:
    """Otava per series; returns the change points and counts (series analysed, constant, too short)."""
    from otava.analysis import compute_change_points

    options = options or Options()
    frame = series_frame(store, workload, metric)
    found: list[Change] = []
    stats = {"series": 0, "constant": 0, "too_short": 0, "runs": int(frame["run_id"].nunique()) if len(frame) else 0}
    judged: list[tuple[Change, tuple]] = []
    if frame.empty:
        return found, stats
    for key, series in frame.groupby([*SERIES_KEYS, "metric"], sort=True):
        stats["series"] += 1
        values = series["median"].to_numpy(dtype=float)
        finite = np.isfinite(values)
        if finite.sum() < 4:
            stats["too_short"] += 1
            continue
        if np.nanmin(values[finite]) == np.nanmax(values[finite]):
            stats["constant"] += 1  # a deterministic series that never moved: nothing to find
            continue
        filled = pd.Series(np.where(finite, values, np.nan)).ffill().bfill().tolist()
        points, _ = compute_change_points(
            filled, window_len=options.window_len, max_pvalue=options.max_pvalue, min_magnitude=options.min_magnitude
        )
        run_ids, created = series["run_id"].tolist(), series["created_utc"].tolist()
        wl, scenario, variant, mode, factors, metric_name = key
        d = direction(wl, metric_name)
        bounds = [0] + [int(p.index) for p in points] + [len(values)]
        for k, point in enumerate(points):
            i = int(point.index)
            change = point.stats.forward_rel_change() * 100
            segment = (
                run_ids[bounds[k] : i],
                values[bounds[k] : i],
                run_ids[i : bounds[k + 2]],
                values[i : bounds[k + 2]],
            )
            verdict = "changed"  # replaced by the one rule in _judge
            found.append(
                Change(
                    workload=wl,
                    scenario=scenario,
                    variant=variant,
                    mode=mode,
                    factors=json.loads(factors),
                    metric=metric_name,
                    direction=d,
                    run_id=run_ids[i],
                    created_utc=created[i],
                    previous_run_id=run_ids[i - 1],
                    index=i,
                    runs_in_series=len(run_ids),
                    change_pct=float(change),
                    mean_before=float(point.stats.mean_1),
                    mean_after=float(point.stats.mean_2),
                    pvalue=float(point.stats.pvalue),
                    verdict=verdict,
                    runs_after=len(run_ids) - i,
                    confirmed=len(run_ids) - i >= options.confirm_runs,
                )
            )
            judged.append((found[-1], segment))
    _judge(judged)
    found.sort(key=lambda c: (c.created_utc, c.workload, c.scenario, c.variant, c.metric))
    return found, stats


def _judge(judged: list[tuple[Change, tuple]]) -> None:
    """Each change point's verdict by the one rule (verdicts.py): the runs between the previous change
    point and this one against the runs up to the next, one value (the run's median) per run.
    Otava proposes where; the rule decides whether it is a change, with Benjamini–Hochberg over
    every change point found. A deterministic (sim) series that stepped has changed, no test needed."""
    from . import verdicts as V

    evidence = []
    for _change, (before_ids, before, after_ids, after) in judged:
        b = {r: [float(v)] for r, v in zip(before_ids, before, strict=False) if math.isfinite(v)}
        n = {r: [float(v)] for r, v in zip(after_ids, after, strict=False) if math.isfinite(v)}
        evidence.append(V.evidence(b, n, "live"))
    V.adjust([ev for (change, _), ev in zip(judged, evidence, strict=True) if change.mode != "sim"])
    for (change, _), ev in zip(judged, evidence, strict=True):
        if change.mode == "sim":
            change.verdict = V._directed(change.mean_after - change.mean_before, change.direction, HIGHER, LOWER)
            change.why = "deterministic (virtual time): the value stepped at this run"
            continue
        V.decide(ev, change.direction)
        change.verdict = ev.verdict if ev.verdict != V.FEW else V.INCONCLUSIVE
        change.why = (
            ev.why
            if ev.verdict != V.FEW
            else (
                f"{ev.n_base} / {ev.n_new} runs either side of the change point: too few for the rule "
                f"(≥ {V.MIN_RUNS} a side): inconclusive until more runs"
            )
        )
        change.rule_change_pct = None if ev.change is None else 100 * ev.change
        change.ci_low_pct = None if ev.low is None else 100 * ev.low
        change.ci_high_pct = None if ev.high is None else 100 * ev.high


SPARK = "▁▂▃▄▅▆▇█"


def sparkline(values) -> str:
    """The trend chart in text, for a job summary (which shows no image from the runner)."""
    v = [float(x) for x in values if math.isfinite(float(x))]
    if not v:
        return ""
    low, high = min(v), max(v)
    if high == low:
        return SPARK[3] * len(v)
    return "".join(SPARK[min(len(SPARK) - 1, int((x - low) / (high - low) * len(SPARK)))] for x in v)


def changes_markdown(found: list[Change], stats: dict, options: Options, frame: pd.DataFrame | None = None) -> str:
    """The change points as Markdown; with the series frame, each row also shows its series' trend
    (one character per run, oldest first, the change point after the `|`)."""
    tentative = sum(1 for c in found if not c.confirmed)
    lines = [
        f"{len(found)} change points ({tentative} tentative: fewer than {options.confirm_runs} runs after them) "
        f"in {stats['series']} series over {stats['runs']} runs (Apache Otava E-divisive means, window "
        f"{options.window_len}, p < {options.max_pvalue:g}, size ≥ {options.min_magnitude:.0%}; "
        f"{stats['constant']} series never moved, {stats['too_short']} have fewer than 4 runs)",
        "",
    ]
    if found:
        rows = [
            [
                c.workload,
                c.scenario,
                c.variant,
                c.mode,
                ", ".join(f"{k}={v}" for k, v in c.factors.items()) or "–",
                c.metric,
                c.run_id,
                c.created_utc,
                f"{c.change_pct:+.1f} %",
                f"{c.pvalue:.2g}",
                c.verdict + ("" if c.confirmed else " (tentative)"),
                c.why,
            ]
            for c in found
        ]
        header = [
            *SERIES_KEYS,
            "metric",
            "first run after",
            "created (UTC)",
            "size",
            "p",
            "verdict",
            "why (rule pb-verdict-3)",
        ]
        if frame is not None and len(frame):
            header.append("trend (median per run)")
            for row, c in zip(rows, found, strict=True):
                s = frame[
                    (frame["workload"] == c.workload)
                    & (frame["scenario"] == c.scenario)
                    & (frame["variant"] == c.variant)
                    & (frame["mode"] == c.mode)
                    & (frame["metric"] == c.metric)
                ]
                s = s[s["factors"].map(lambda f, factors=c.factors: json.loads(f) == factors)]
                line = sparkline(s["median"])
                row.append(f"`{line[: c.index]}|{line[c.index :]}`" if line else "–")
        lines += [md_table(header, rows), ""]
    return "\n".join(lines)


def changes_json(found: list[Change], stats: dict, options: Options) -> str:
    return (
        json.dumps(
            {
                "detector": "apache-otava E-divisive means",
                "options": asdict(options),
                "stats": stats,
                "changes": [asdict(c) for c in found],
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


# ---------------------------------------------------------------- plot

VERDICT_COLORS = {"worse": "#cf222e", "better": "#1a7f37", "changed": "#9a6700", "health": "#57606a"}


def change_label(c: Change) -> str:
    """A change point's size for a chart: relative when it has a base, the two levels when it
    starts from zero (Otava's relative change is 0 there, which read "+0.0 %")."""
    if c.mean_before == 0:
        return f"{c.mean_before:.3g} → {c.mean_after:.3g}"
    return f"{c.change_pct:+.1f} %"


def change_size(c: Change) -> float:
    """How large a change is, for ordering: |relative change|, infinite from zero to non-zero."""
    if c.mean_before == 0:
        return math.inf if c.mean_after != 0 else 0.0
    return abs(c.mean_after / c.mean_before - 1)


def panel_rank(changes: list[Change]) -> tuple:
    """The order the default plot draws series in: performance before host-health metrics, then
    confirmed changes before tentative ones, then the largest change, then the most certain
    (smallest p). A series with several change points ranks by its strongest one."""

    def key(c: Change) -> tuple:
        return (c.metric in HEALTH_METRICS, not c.confirmed, -change_size(c), c.pvalue)

    best = min(key(c) for c in changes)
    first = changes[0]
    return (*best, first.workload, first.scenario, first.variant, first.metric)


def plot(
    store: Store,
    out_dir: Path,
    found: list[Change],
    workload: str | None = None,
    metric: str | None = None,
    limit: int = 12,
) -> list:
    """Trend charts: one panel per series with a change point (or every series matching the filters)."""
    import matplotlib.pyplot as plt

    from .charts.common import Chart, layout, slug, tag, variant_color

    frame = series_frame(store, workload, metric)
    if frame.empty:
        raise InputError(
            f"{store.describe()}: no runs stored{' for ' + workload if workload else ''}; "
            "run `pb-analysis history ingest` first"
        )
    keys = list(dict.fromkeys(tuple(k) for k in frame[[*SERIES_KEYS, "metric"]].itertuples(index=False, name=None)))
    # The stored factors text is the key; match each change to it by value, not by spelling.
    stored = {(*k[:4], json.dumps(json.loads(k[4]), sort_keys=True), k[5]): k for k in keys}
    marked: dict[tuple, list[Change]] = {}
    for c in found:
        key = stored.get((c.workload, c.scenario, c.variant, c.mode, json.dumps(c.factors, sort_keys=True), c.metric))
        if key is not None:
            marked.setdefault(key, []).append(c)
    chosen = sorted(marked, key=lambda k: panel_rank(marked[k]))
    if not chosen and (workload or metric):
        chosen = keys
    note = ""
    if len(chosen) > limit:
        note = f"; {len(chosen) - limit} more series not drawn (use --workload/--metric/--limit)"
    chosen = chosen[:limit]
    if not chosen:
        return []
    columns = min(3, len(chosen))
    rows = (len(chosen) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 3.1 * rows + 1.3), squeeze=False)
    for ax, key in zip(axes.flat, chosen, strict=False):
        wl, scenario, variant, mode, factors, metric_name = key
        s = frame[
            (frame["workload"] == wl)
            & (frame["scenario"] == scenario)
            & (frame["variant"] == variant)
            & (frame["mode"] == mode)
            & (frame["factors"] == factors)
            & (frame["metric"] == metric_name)
        ]
        x = np.arange(len(s))
        color = variant_color(variant, wl)
        ax.fill_between(x, s["min"], s["max"], color=color, alpha=0.18, linewidth=0)
        (line,) = ax.plot(x, s["median"], "o-", color=color, markersize=2.5, linewidth=1.0)
        tag(line, f"{wl}/{scenario}/{variant}/{mode}/{factors}/{metric_name}")
        health = metric_name in HEALTH_METRICS
        for j, c in enumerate(marked.get(key, [])):
            mark = VERDICT_COLORS["health" if health else c.verdict if c.verdict in VERDICT_COLORS else "changed"]
            v = ax.axvline(
                c.index - 0.5, color=mark, linestyle=":" if health or not c.confirmed else "--", linewidth=1.2
            )
            v.set_gid(f"change:{slug(c.run_id)}")
            text = change_label(c) + ("" if health else f", {c.verdict}") + ("" if c.confirmed else " (tentative)")
            right_half = c.index - 0.5 > (len(s) - 1) / 2  # label on the side with room
            ax.annotate(
                text,
                (c.index - 0.5, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(-4 if right_half else 4, -4 - 11 * j),
                textcoords="offset points",
                fontsize=7,
                color=mark,
                ha="right" if right_half else "left",
                va="top",
                bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.85},
            )
        ax.margins(y=0.18)  # headroom for the label above the data
        labels = "".join(f", {k}={v}" for k, v in json.loads(factors).items())
        prefix = "host health (no verdict)\n" if health else ""
        ax.set_title(f"{prefix}{wl} {scenario} / {variant} ({mode}{labels})", fontsize=8)
        ax.set_xlabel("run (oldest first)")
        ax.set_ylabel(f"{metric_name} ({s['unit'].iloc[0]}), linear")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(chosen) :]:
        ax.set_visible(False)
    title = "History: median per run with change points"
    layout(
        fig,
        title,
        "largest, most certain change first, host-health metrics last; line: median per run, "
        "band: min–max over its repetitions;\ndashed: change point (Apache Otava), dotted: tentative "
        "or host health; label: size (levels when from zero)" + note,
    )
    run_ids = sorted(frame["run_id"].unique())
    fig.text(0.01, 0.005, f"{len(run_ids)} runs from {store.describe()}", fontsize=7, color="#555555")
    out_dir.mkdir(parents=True, exist_ok=True)
    name = "history" + (f"-{slug(workload)}" if workload else "") + (f"-{slug(metric)}" if metric else "")
    png, svg = out_dir / f"{name}.png", out_dir / f"{name}.svg"
    fig.savefig(png, dpi=110)
    fig.savefig(svg, metadata={"Date": None})
    plt.close(fig)
    return [
        Chart(
            name=name, title=title, workload=workload or "all", png=png, svg=svg, series=["/".join(k) for k in chosen]
        )
    ]


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return result, time.perf_counter() - start
