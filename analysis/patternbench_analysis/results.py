"""Reading results folders (schema versions 1 to 3), strictly.

A results folder holds one `<workload>.csv` + `<workload>.json` pair per workload that wrote into
it, optionally a `bench-throttle --events` timeline CSV and the regression gate's `gate.json`.
Everything here refuses what it does not understand with an `InputError` whose message is one
line naming the offending file; it never guesses.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

SCHEMA_VERSION = 1  # what this package writes (merge): the columns it works in
# What it reads: schema 2 (the bench-* since the variant registries) adds an `origin` column after
# `variant` (signal, article, platform, ours, user); it is checked and then left out, so runs of
# both versions concatenate, compare and go into one history.
# Schema 3 writes numeric factor values in the JSON as numbers (`"threads": 1`, null where not
# applicable); they are read back as the CSV's text, so every version's documents look alike here.
# Its runs' `--events` files carry the factor columns after `repetition` (read_events).
READ_SCHEMA_VERSIONS = (1, 2, 3)
LEADING_COLUMNS = ["run_id", "workload", "scenario", "variant", "mode", "seed", "repetition"]
TRAILING_COLUMNS = ["metric", "value", "unit", "host"]
EVENTS_COLUMNS = ["run_id", "scenario", "variant", "seed", "time_ms", "rows", "reset", "cost_ms", "frame_lateness_ms"]
# Every bench-*'s `--events` since the timelines: one row per slice, instant or counter
# (results/README.md). The older bench-throttle file above is read into these columns too.
TIMELINE_COLUMNS = [
    "run_id",
    "workload",
    "scenario",
    "variant",
    "mode",
    "seed",
    "repetition",
    "time_ms",
    "event",
    "rows",
    "reset",
    "cost_ms",
    "frame_lateness_ms",
    "track",
    "kind",
    "value",
]
GATE_FILE = "gate.json"
GATE_SUMMARY_FILE = "gate-summary.md"
EVENTS_FILE = "events.csv"


# Factor columns renamed to numeric ones with the unit in the name (bench-atomics wrote `cs_work` =
# `0`, `50ns`, `1us` before; now `cs_work_ns` = 0, 50, 1000). Older files are read under the new
# names, so runs from before and after the rename concatenate and compare.
RENAMED_FACTORS = {"cs_work": "cs_work_ns", "gap_work": "gap_work_ns"}
NUMERIC_FACTORS = {"threads", "cs_work_ns", "gap_work_ns", "capacity"}
DURATION_UNITS_NS = {"ns": 1, "us": 1_000, "µs": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


def duration_ns(text: str) -> float:
    """`0`, `50ns`, `1us`, `1.5ms` -> nanoseconds; a bare number is nanoseconds already."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(ns|us|µs|ms|s)?\s*", str(text))
    if not match:
        raise ValueError(text)
    return float(match.group(1)) * DURATION_UNITS_NS[match.group(2) or "ns"]


class InputError(Exception):
    """Bad input: printed as one line, exit status 1."""

    exit_status = 1

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class PathError(InputError):
    """A path on the command line that is missing, in the way or not writable: one line, exit status 2
    (like a usage error: the command was pointed at the wrong place, nothing was read wrong)."""

    exit_status = 2


def csv_header(factor_names: list[str], schema_version: int = SCHEMA_VERSION) -> list[str]:
    leading = LEADING_COLUMNS if schema_version == 1 else [*LEADING_COLUMNS[:4], "origin", *LEADING_COLUMNS[4:]]
    return leading + list(factor_names) + TRAILING_COLUMNS


@dataclass
class Cell:
    """One result cell: a workload's metric in one scenario, variant, mode and set of factors.

    What `compare` (two runs) and `history` (a series of runs) report a change of."""

    workload: str
    scenario: str
    variant: str
    mode: str
    factors: dict
    metric: str


@dataclass
class WorkloadRun:
    """One workload's table and document inside a results folder."""

    folder: Path
    workload: str
    document: dict
    table: pd.DataFrame

    @property
    def raw_factor_names(self) -> list[str]:
        """The factor columns as the files spell them (merge copies CSV rows byte for byte)."""
        return list(self.document.get("factor_names", []))

    @property
    def factor_names(self) -> list[str]:
        """The factor columns of `table`: old names mapped to their numeric successors."""
        return [RENAMED_FACTORS.get(f, f) for f in self.raw_factor_names]

    @property
    def run_ids(self) -> list[str]:
        return sorted(self.table["run_id"].unique())

    @property
    def hosts(self) -> list[str]:
        return sorted(self.table["host"].unique())

    @property
    def notes(self) -> list[str]:
        return list(self.document.get("notes", []))

    def sources(self) -> list[dict]:
        """Per original run: run_id, host, created_utc, parameters (merged folders list several)."""
        merged = self.document.get("metadata", {}).get("parameters", {}).get("merged_from")
        if isinstance(merged, list) and merged:
            return merged
        meta = self.document.get("metadata", {})
        return [
            {
                "run_id": self.document.get("run_id"),
                "host": meta.get("host", {}).get("hostname"),
                "created_utc": self.document.get("created_utc"),
                "git_commit": meta.get("git_commit"),
                "git_dirty": meta.get("git_dirty"),
                "user_package": meta.get("user_package"),
                "swift_version": meta.get("swift_version"),
                "build_configuration": meta.get("build_configuration"),
                # Absent in documents from before arrival stream version 2, which all drew from version 1.
                "random_stream_version": meta.get("random_stream_version", 1),
                "parameters": meta.get("parameters", {}),
            }
        ]

    def parameters_by_run(self) -> dict[str, dict]:
        return {s["run_id"]: s.get("parameters", {}) for s in self.sources()}

    def scalar_parameters_by_run(self) -> dict[str, dict[str, object]]:
        """Per run, its parameters flattened to scalars (`client_parameters.ttlSeconds`), lists left out."""
        return {run_id: flatten_parameters(params) for run_id, params in self.parameters_by_run().items()}


def flatten_parameters(parameters: dict, prefix: str = "") -> dict[str, object]:
    """Scalar run parameters by dotted name, sorted; lists, nulls and the merge bookkeeping are left out."""
    flat: dict[str, object] = {}
    for key in sorted(parameters or {}):
        value = parameters[key]
        name = f"{prefix}{key}"
        if key in ("merged_from", "shards") and not prefix:
            continue
        if isinstance(value, dict):
            flat |= flatten_parameters(value, name + ".")
        elif isinstance(value, (bool, int, float, str)):
            flat[name] = value
    return flat


@dataclass
class ResultsFolder:
    path: Path
    runs: dict[str, WorkloadRun] = field(default_factory=dict)
    events: pd.DataFrame | None = None
    events_path: Path | None = None
    gate: dict | None = None
    gate_summary: str | None = None


def _rel(path: Path) -> str:
    return str(path)


def read_document(path: Path) -> dict:
    """The JSON document, checked for the schema version before anything else is trusted."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"{_rel(path)}: cannot read: {error.strerror or error}") from error
    if not text.strip():
        raise InputError(f"{_rel(path)}: empty file")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{_rel(path)}: not valid JSON (line {error.lineno}: {error.msg})") from error
    if not isinstance(document, dict) or "schema_version" not in document:
        raise InputError(f"{_rel(path)}: no schema_version; not a PatternBench results file")
    version = document["schema_version"]
    if isinstance(version, bool) or not isinstance(version, int) or version not in READ_SCHEMA_VERSIONS:
        raise InputError(
            f"{_rel(path)}: schema_version {json.dumps(version)}, but this tool reads schema versions "
            f"{', '.join(map(str, READ_SCHEMA_VERSIONS))} only"
        )
    for key in ("run_id", "workload", "metadata", "factor_names", "records"):
        if key not in document:
            raise InputError(f"{_rel(path)}: missing key '{key}' required by schema version {version}")
    if not isinstance(document["factor_names"], list):
        raise InputError(f"{_rel(path)}: factor_names is not a list")
    for row in [*document["records"], *document.get("summaries", [])]:
        if isinstance(row, dict) and isinstance(row.get("factors"), dict):
            row["factors"] = {k: "" if v is None else factor_text(v) for k, v in row["factors"].items()}
    return document


def _read_header(path: Path) -> list[str]:
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            first = handle.readline()
    except OSError as error:
        raise InputError(f"{_rel(path)}: cannot read: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise InputError(f"{_rel(path)}: not UTF-8 text") from error
    return [c.strip().strip('"') for c in first.rstrip("\r\n").split(",")] if first.strip() else []


def _to_float(text: str) -> float:
    return float(text)  # accepts inf, -inf, nan as the writer spells them


def read_table(path: Path, factor_names: list[str], schema_version: int = SCHEMA_VERSION) -> pd.DataFrame:
    """The tidy CSV, with its header checked against its schema version and the document's factors
    (schema 2's `origin` column is left out: READ_SCHEMA_VERSIONS)."""
    header = _read_header(path)
    if not header:
        raise InputError(f"{_rel(path)}: empty file (expected the results schema version {schema_version} header)")
    expected = csv_header(factor_names, schema_version)
    if header != expected:
        raise InputError(
            f"{_rel(path)}: columns {','.join(header)} are not results schema version {schema_version} "
            f"(expected {','.join(expected)})"
        )
    string_columns = {c: str for c in expected if c != "value"}
    try:
        table = pd.read_csv(path, dtype=string_columns | {"value": str}, keep_default_na=False, na_values=[])
    except (pd.errors.ParserError, ValueError) as error:
        raise InputError(f"{_rel(path)}: not a valid CSV ({str(error).splitlines()[0]})") from error
    if "origin" in table.columns:
        table = table.drop(columns="origin")
    values = []
    for index, text in enumerate(table["value"]):
        try:
            values.append(_to_float(text))
        except ValueError as error:
            raise InputError(f"{_rel(path)}: line {index + 2}: value '{text}' is not a number") from error
    table["value"] = pd.Series(values, index=table.index, dtype="float64")
    for column in ("seed", "repetition"):
        try:
            table[column] = pd.to_numeric(table[column], errors="raise", downcast=None)
        except (ValueError, TypeError) as error:
            raise InputError(f"{_rel(path)}: column {column} holds a non-integer") from error
        if table[column].dtype.kind not in "iu":
            raise InputError(f"{_rel(path)}: column {column} holds a non-integer")
    return normalize_factors(table, factor_names, path)


def normalize_factors(table: pd.DataFrame, factor_names: list[str], path: Path) -> pd.DataFrame:
    """Old duration factors (`cs_work` = `50ns`) become numeric `cs_work_ns`; numeric factors become
    float64 (NaN where not applicable), so every run of a workload has the same dtypes."""
    for old, new in RENAMED_FACTORS.items():
        if old not in factor_names:
            continue
        converted = []
        for index, text in enumerate(table[old]):
            try:
                converted.append(duration_ns(text) if text != "" else float("nan"))
            except ValueError as error:
                raise InputError(
                    f"{_rel(path)}: line {index + 2}: {old} '{text}' is not a duration (0, 50ns, 1us, ...)"
                ) from error
        table[old] = converted
        table = table.rename(columns={old: new})
    for column in NUMERIC_FACTORS & set(table.columns):
        if column in factor_names or column in RENAMED_FACTORS.values():
            try:
                table[column] = pd.to_numeric(table[column].replace("", float("nan"))).astype("float64")
            except (ValueError, TypeError) as error:
                raise InputError(f"{_rel(path)}: column {column} holds a non-number") from error
    return table


def events_factor_names(header: list[str]) -> list[str] | None:
    """The factor columns of a TIMELINE_COLUMNS header (schema 3 puts the workload's factor columns
    after `repetition`, as the results CSV does; schema 2 had none); None for another header."""
    lead, trail = TIMELINE_COLUMNS[:7], TIMELINE_COLUMNS[7:]
    if len(header) >= len(TIMELINE_COLUMNS) and header[:7] == lead and header[len(header) - len(trail) :] == trail:
        return header[7 : len(header) - len(trail)]
    return None


def read_events(path: Path) -> pd.DataFrame:
    """An `--events` timeline in TIMELINE_COLUMNS, with the factor columns of schema 3 after
    `repetition` typed as the results table's (an older bench-throttle file: its update rows)."""
    header = _read_header(path)
    factors = events_factor_names(header)
    if header != EVENTS_COLUMNS and factors is None:
        raise InputError(
            f"{_rel(path)}: columns {','.join(header)} are not an events timeline "
            f"({','.join(TIMELINE_COLUMNS)}, factor columns after repetition)"
        )
    dtypes = {
        "run_id": str,
        "workload": str,
        "scenario": str,
        "variant": str,
        "mode": str,
        "seed": "int64",
        "repetition": "int64",
        "time_ms": "float64",
        "event": str,
        "rows": "int64",
        "reset": "int64",
        "cost_ms": "float64",
        "frame_lateness_ms": "float64",
        "track": str,
        "kind": str,
        "value": "float64",
    }
    dtypes |= {f: str for f in factors or []}
    try:
        # An absent number is `NaN` (empty in files written before the columns were spelled as floats).
        table = pd.read_csv(path, dtype={c: dtypes[c] for c in header}, keep_default_na=False, na_values=["", "NaN"])
    except (pd.errors.ParserError, ValueError) as error:
        raise InputError(f"{_rel(path)}: not a valid events CSV ({str(error).splitlines()[0]})") from error
    if header == EVENTS_COLUMNS:
        table = table.assign(
            workload="throttle",
            mode="sim",
            repetition=0,
            event="update",
            track="main",
            kind="slice",
            value=float("nan"),
        )[TIMELINE_COLUMNS]
    if factors:
        table[factors] = table[factors].fillna("")
        table = normalize_factors(table, factors, path)
    return table


def is_events_csv(path: Path) -> bool:
    header = _read_header(path)
    return header[:5] == EVENTS_COLUMNS[:5] or events_factor_names(header) is not None


def load_folder(path: str | Path) -> ResultsFolder:
    """Reads every workload in a results folder; refuses missing, empty and foreign folders."""
    folder = Path(path)
    if not folder.exists():
        raise PathError(f"results folder {_rel(folder)} does not exist")
    if not folder.is_dir():
        raise PathError(
            f"{_rel(folder)} is not a folder (expected a results folder with <workload>.csv and <workload>.json)"
        )
    result = ResultsFolder(path=folder)
    jsons = sorted(p for p in folder.glob("*.json") if p.name != GATE_FILE)
    csvs = sorted(folder.glob("*.csv"))
    for csv_path in csvs:
        if is_events_csv(csv_path):
            if result.events_path is not None:
                raise InputError(
                    f"{_rel(csv_path)}: a second events timeline in one folder (first: {result.events_path.name})"
                )
            result.events_path = csv_path
            result.events = read_events(csv_path)
        elif not csv_path.with_suffix(".json").exists():
            raise InputError(
                f"{_rel(csv_path)}: no {csv_path.stem}.json beside it (a results folder holds both)"
                f"{'' if jsons else _subfolder_hint(folder)}"
            )
    for json_path in jsons:
        csv_path = json_path.with_suffix(".csv")
        if not csv_path.exists():
            raise InputError(f"{_rel(json_path)}: no {json_path.stem}.csv beside it (a results folder holds both)")
        document = read_document(json_path)
        if document["workload"] != json_path.stem:
            raise InputError(f"{_rel(json_path)}: holds workload '{document['workload']}', not '{json_path.stem}'")
        table = read_table(csv_path, document["factor_names"], document["schema_version"])
        foreign = sorted(set(table["workload"]) - {json_path.stem})
        if foreign:
            raise InputError(f"{_rel(csv_path)}: rows of workload '{foreign[0]}' in {csv_path.name}")
        result.runs[json_path.stem] = WorkloadRun(
            folder=folder, workload=json_path.stem, document=document, table=table
        )
    if not result.runs:
        raise InputError(
            f"results folder {_rel(folder)} holds no results (<workload>.csv with <workload>.json)"
            f"{_subfolder_hint(folder)}"
        )
    gate_path = folder / GATE_FILE
    if gate_path.exists():
        result.gate = read_gate(gate_path)
        summary_path = folder / GATE_SUMMARY_FILE
        if summary_path.exists():
            result.gate_summary = summary_path.read_text(encoding="utf-8")
    return result


def _subfolder_hint(folder: Path) -> str:
    children = sorted(p.name for p in folder.iterdir() if p.is_dir() and any(p.glob("*.json")))
    return f"; did you mean one of its subfolders ({', '.join(children[:3])})?" if children else ""


def read_gate(path: Path) -> dict:
    try:
        gate = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise InputError(f"{_rel(path)}: not a readable gate verdict ({error})") from error
    if not isinstance(gate, dict) or gate.get("verdict") not in ("pass", "regression", "error"):
        raise InputError(f"{_rel(path)}: 'verdict' must be pass, regression or error")
    return gate


def load_folders(paths: list[str | Path]) -> list[ResultsFolder]:
    """Several folders, which must not share a run: the same run twice would count its rows twice."""
    if not paths:
        raise InputError("no results folder given")
    folders = [load_folder(p) for p in paths]
    check_distinct_runs(folders)
    return folders


def check_distinct_runs(folders: list[ResultsFolder]) -> None:
    seen: dict[tuple[str, str], Path] = {}
    for folder in folders:
        for workload, run in folder.runs.items():
            for run_id in run.run_ids:
                other = seen.get((workload, run_id))
                if other is not None:
                    raise InputError(
                        f"run id {run_id} is in both {other} and {folder.path} "
                        f"(overlapping run ids: the same run given twice?)"
                    )
                seen[(workload, run_id)] = folder.path


def combined(folders: list[ResultsFolder], workload: str) -> list[WorkloadRun]:
    return [f.runs[workload] for f in folders if workload in f.runs]


def workloads(folders: list[ResultsFolder]) -> list[str]:
    order = ["throttle", "atomics", "clock"]
    seen = {w for f in folders for w in f.runs}
    return [w for w in order if w in seen] + sorted(seen - set(order))


def factor_text(value) -> str:
    """A factor value as text for labels and tags: `50` not `50.0`, empty where not applicable."""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


def finite(value: float) -> bool:
    return not (math.isnan(value) or math.isinf(value))
