"""A synthetic nightly history built from real noisy results, with known steps, for testing and
measuring change-point detection (docs/analysis.md, "History").

Night k is a copy of a real run whose live values are, per cell and metric, a resample with
replacement of that run's own repetitions (seeded): the night-to-night noise is the run's real
noise. Virtual-time rows (mode `sim`) are deterministic per seed, so they stay as they are. Chosen
series are multiplied by (1 + step) from each step's night on, so two +8 % steps add up to +16.6 %
while each stays under the gate's 15 % tolerance.

    python3 tests/synthetic_history.py OUT_DIR [--nights 100] [--source results/baseline] [--measure]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "analysis"))

from patternbench_analysis.results import csv_header, load_folder  # noqa: E402

STEP_NIGHTS = (12, 24)
STEP = 0.08
# Stepped series: (workload, variant, metric). cpu_ns_per_op moves ~1 % between repetitions,
# ns_per_op (wall clock) ~30 %: the same step is expected to be found in one and lost in the other.
STEPPED = {
    ("atomics", "mutex", "cpu_ns_per_op"),
    ("atomics", "spinlock", "cpu_ns_per_op"),
    ("atomics", "mutex", "ns_per_op"),
    ("atomics", "spinlock", "ns_per_op"),
}
START = datetime(2026, 10, 1, 2, 0, tzinfo=UTC)


def _number(value: float) -> str:
    if not np.isfinite(value):
        return "inf" if value > 0 else ("-inf" if value < 0 else "nan")
    return repr(float(value)).removesuffix(".0") if float(value).is_integer() else repr(float(value))


def build(
    out: Path,
    nights: int,
    source: Path,
    workloads: tuple[str, ...] = ("atomics",),
    seed: int = 1,
    step_nights: tuple[int, ...] = STEP_NIGHTS,
    stepped=STEPPED,
) -> list[Path]:
    rng = np.random.default_rng(seed)
    folder = load_folder(source)
    written = []
    prepared = {}
    for workload in workloads:
        run = folder.runs[workload]
        raw = pd.read_csv(source / f"{workload}.csv", dtype=str, keep_default_na=False)
        keys = ["scenario", "variant", "mode", *run.raw_factor_names, "metric"]
        live = raw[raw["mode"] != "sim"]  # virtual-time rows repeat exactly every night
        groups = [np.asarray(ix) for ix in live.groupby(keys, sort=False).indices.values()]
        groups = [live.index.to_numpy()[ix] for ix in groups]
        values = run.table["value"].to_numpy(dtype=float)
        prepared[workload] = (run, raw, groups, values)
    for night in range(nights):
        created = START + timedelta(days=night)
        stamp = created.strftime("%Y%m%dT%H%M%SZ")
        night_dir = out / f"night-{night:03d}"
        night_dir.mkdir(parents=True, exist_ok=True)
        for workload, (run, raw, groups, values) in prepared.items():
            run_id = f"{workload}-{stamp}-n{night:03d}"
            new = values.copy()
            for ix in groups:
                new[ix] = values[ix][rng.integers(0, len(ix), len(ix))]
            factor = np.ones(len(values))
            steps = sum(1 for n in step_nights if night >= n)
            if steps:
                mask = np.zeros(len(values), dtype=bool)
                for wl, variant, metric in stepped:
                    if wl == workload:
                        mask |= ((raw["variant"] == variant) & (raw["metric"] == metric)).to_numpy()
                factor[mask] = (1 + STEP) ** steps
            new = new * factor
            table = raw.copy()
            table["run_id"] = run_id
            table["value"] = [_number(v) for v in new]
            table[csv_header(run.raw_factor_names)].to_csv(
                night_dir / f"{workload}.csv", index=False, lineterminator="\n"
            )
            document = json.loads((source / f"{workload}.json").read_text())
            document["run_id"] = run_id
            document["created_utc"] = created.strftime("%Y-%m-%dT%H:%M:%SZ")
            document["notes"] = [
                *document.get("notes", []),
                f"synthetic night {night} built from {document.get('run_id')} (tests/synthetic_history.py)",
            ]
            factor_names = run.raw_factor_names
            document["records"] = [
                {
                    "run_id": run_id,
                    "workload": workload,
                    "scenario": r["scenario"],
                    "variant": r["variant"],
                    "mode": r["mode"],
                    "seed": int(r["seed"]),
                    "repetition": int(r["repetition"]),
                    "factors": {f: r[f] for f in factor_names},
                    "metric": r["metric"],
                    "value": r["value"],
                    "unit": r["unit"],
                    "host": r["host"],
                }
                for r in table.to_dict("records")
            ]
            document["summaries"] = []
            (night_dir / f"{workload}.json").write_text(json.dumps(document), encoding="utf-8")
        written.append(night_dir)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--nights", type=int, default=100)
    parser.add_argument("--source", default=str(ROOT / "results" / "baseline"))
    parser.add_argument("--workloads", default="atomics", help="comma-separated (the source must hold them)")
    parser.add_argument("--measure", action="store_true", help="time ingest + changes into a fresh SQLite file")
    args = parser.parse_args()
    out = Path(args.out)
    start = time.perf_counter()
    nights = build(out, args.nights, Path(args.source), tuple(args.workloads.split(",")))
    print(f"built {len(nights)} nights in {time.perf_counter() - start:.1f} s")
    if args.measure:
        from patternbench_analysis import history

        db = out / "history.sqlite"
        db.unlink(missing_ok=True)
        store = history.Store(db)
        start = time.perf_counter()
        result = history.ingest(store, [load_folder(n) for n in nights])
        ingest_s = time.perf_counter() - start
        start = time.perf_counter()
        found, stats = history.changes(store)
        changes_s = time.perf_counter() - start
        print(
            f"ingest: {len(result.runs_added)} runs, {result.rows_added} rows in {ingest_s:.1f} s; "
            f"changes: {stats['series']} series ({stats['constant']} constant) in {changes_s:.1f} s; "
            f"{len(found)} change points"
        )
        for c in found:
            print(
                f"  {c.workload} {c.variant} {c.factors} {c.metric}: index {c.index} ({c.run_id}) {c.change_pct:+.1f} % "
                f"p={c.pvalue:.2g}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
