"""`export`: results folders as InfluxDB line protocol or OpenMetrics text, for the dashboards.

Both keep every row: a row's metric becomes a field (Influx) or a metric family (OpenMetrics); its
run_id, scenario, variant, mode, seed, repetition, factors and host become tags / labels; its
timestamp is the run's `created_utc` (nanoseconds in line protocol, seconds in OpenMetrics).

InfluxDB line protocol (https://docs.influxdata.com/influxdb/v2/reference/syntax/line-protocol/):
  measurement `patternbench_<workload>`, one point per (run, scenario, variant, mode, seed,
  repetition, factors, host) with one float field per metric. `run_id` is a tag, so runs created
  in the same second stay distinct points (InfluxDB keys a point by series and time); the run's
  scalar parameters are tags `param_<name>` on every point, so a dashboard can group by them.
  Non-finite values (inf, nan) cannot be written in line protocol and are left out (counted in a
  comment line at the top).

OpenMetrics 1.0 text (https://prometheus.io/docs/specs/om/open_metrics_spec/):
  one gauge family `patternbench_<workload>_<metric>` per metric, labels as above, timestamps in
  seconds on every sample (promtool's backfill requires them all or none), a `patternbench_run`
  info family per run whose labels carry the run's metadata and parameters (`param_<name>`; join
  on `run_id`), terminated by `# EOF`.

Without timestamps (`--no-timestamps`) the output is the Prometheus text format 0.0.4 that a
Pushgateway and node_exporter's textfile collector read: the run family is a gauge
(`patternbench_run_info ... 1`), as that format has no info type, and there is no `# UNIT` or
`# EOF`.
"""

from __future__ import annotations

import math
import re
from datetime import datetime

from .results import InputError, ResultsFolder, WorkloadRun, combined, factor_text, workloads
from .results import flatten_parameters as flatten

TAG_COLUMNS = ["scenario", "variant", "mode", "seed", "repetition", "host"]
PRECISION = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}


def epoch_ns(created_utc: str | None, where: str) -> int:
    """created_utc as integer nanoseconds since the epoch (fractional seconds kept when present);
    a missing one (None) is an InputError like any other that is not an ISO 8601 UTC time."""
    text = str(created_utc)
    match = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)", text)
    if not match:
        raise InputError(f"{where}: created_utc '{created_utc}' is not an ISO 8601 UTC time")
    zone = "+00:00" if match.group(3) == "Z" else match.group(3)
    try:
        moment = datetime.fromisoformat(match.group(1) + zone)
    except ValueError as error:
        raise InputError(f"{where}: created_utc '{created_utc}' is not an ISO 8601 UTC time") from error
    fraction = int((match.group(2) or "0").ljust(9, "0"))
    return int(moment.timestamp()) * 10**9 + fraction


def epoch_seconds(created_utc: str, where: str) -> int:
    return epoch_ns(created_utc, where) // 10**9


def _om_seconds(ns: int) -> str:
    seconds, rest = divmod(ns, 10**9)
    return str(seconds) if rest == 0 else f"{seconds}.{rest:09d}".rstrip("0")


def run_times(run: WorkloadRun) -> dict[str, int]:
    """Per run id: its created_utc in nanoseconds."""
    where = str(run.folder / f"{run.workload}.json")
    times = {s["run_id"]: epoch_ns(s.get("created_utc"), where) for s in run.sources()}
    missing = sorted(set(run.run_ids) - set(times))
    if missing:
        raise InputError(f"{where}: no created_utc for run id {missing[0]} (its rows cannot be time-stamped)")
    return times


def parameter_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return factor_text(value)
    return str(value)


def rows_of(run: WorkloadRun):
    """(run_id, tags, metric, value, unit, nanoseconds) per row, tags in a fixed column order."""
    times = run_times(run)
    factors = run.factor_names
    columns = ["run_id", *TAG_COLUMNS, *factors, "metric", "value", "unit"]
    for record in run.table[columns].itertuples(index=False, name=None):
        values = dict(zip(columns, record, strict=True))
        tags = {c: str(values[c]) for c in TAG_COLUMNS}
        tags |= {f: factor_text(values[f]) for f in factors}
        yield values["run_id"], tags, values["metric"], float(values["value"]), values["unit"], times[values["run_id"]]


def label_names(factors: list[str], reserved: set[str]) -> dict[str, str]:
    """A valid, collision-free tag/label name for each factor column."""
    names: dict[str, str] = {}
    for factor in factors:
        name = re.sub(r"[^A-Za-z0-9_]", "_", factor) or "factor"
        if name[0].isdigit() or name.startswith("_"):
            name = "f" + name.lstrip("_") if name.startswith("__") else "f_" + name
        if name in reserved or name in names.values():
            name = f"factor_{name}"
        names[factor] = name
    return names


# ------------------------------------------------------------------ InfluxDB line protocol


def _escape_key(text: str) -> str:
    """Tag keys, tag values and field keys: backslash, comma, equals sign and space are escaped."""
    text = str(text).replace("\r", " ").replace("\n", " ")  # newlines are not representable
    return re.sub(r"([\\,= ])", r"\\\1", text)


def _escape_measurement(text: str) -> str:
    text = str(text).replace("\r", " ").replace("\n", " ")
    return re.sub(r"([\\, ])", r"\\\1", text)


def _escape_string_field(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def _influx_float(value: float) -> str:
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") and "e" not in text else text


INFLUX_RESERVED = {"time", "_measurement", "_field", "_value", "_start", "_stop"}


def influx(folders: list[ResultsFolder], precision: str = "ns") -> str:
    factor = PRECISION[precision]
    lines, skipped = [], 0
    for workload in workloads(folders):
        measurement = _escape_measurement(f"patternbench_{workload}")
        for run in combined(folders, workload):
            names = label_names(run.factor_names, set(TAG_COLUMNS) | INFLUX_RESERVED | {"run_id"})
            parameters = {
                run_id: {f"param_{k}": parameter_text(v) for k, v in params.items()}
                for run_id, params in run.scalar_parameters_by_run().items()
            }
            points: dict[tuple, dict] = {}
            for run_id, tags, metric, value, _unit, stamp in rows_of(run):
                if not math.isfinite(value):
                    skipped += 1
                    continue
                tagged = {names.get(k, k): v for k, v in tags.items()} | {"run_id": run_id}
                tagged |= {k: v for k, v in parameters.get(run_id, {}).items() if k not in tagged}
                tag_items = tuple(sorted((k, v) for k, v in tagged.items() if v != ""))
                key = (run_id, stamp, tag_items)
                fields = points.setdefault(key, {})
                field = metric if metric not in INFLUX_RESERVED and metric != "run_id" else f"{metric}_value"
                if field.startswith("param_") or field in tagged:
                    field = f"{field}_value"  # a field may not share a tag's key
                if field in fields:
                    raise InputError(
                        f"{run.folder / (workload + '.csv')}: two rows for {metric} of one cell "
                        f"({dict(tag_items)}); a point would silently keep only one"
                    )
                fields[field] = value
            for (_run_id, stamp, tag_items), fields in points.items():
                tag_text = "".join(f",{_escape_key(k)}={_escape_key(v)}" for k, v in tag_items)
                field_text = ",".join(f"{_escape_key(k)}={_influx_float(v)}" for k, v in sorted(fields.items()))
                lines.append(f"{measurement}{tag_text} {field_text} {stamp // (10**9 // factor)}")
    header = (
        [f"# {skipped} non-finite values (inf/nan) left out: line protocol cannot represent them"] if skipped else []
    )
    return "\n".join(header + lines) + "\n"


# ------------------------------------------------------------------ OpenMetrics

OM_RESERVED_SUFFIXES = ("_total", "_created", "_count", "_sum", "_bucket", "_gcount", "_gsum", "_info")


def metric_name(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_:]", "_", text)
    if not name or name[0].isdigit():
        name = "_" + name
    if name.endswith(OM_RESERVED_SUFFIXES):
        name += "_value"
    return name


def om_unit(metric: str, unit: str) -> str | None:
    """The OpenMetrics UNIT, only where the family name ends in it as the spec requires."""
    unit_token = re.sub(r"[^A-Za-z0-9_]", "_", unit.replace("/", "_per_"))
    return unit_token if unit_token and metric.endswith("_" + unit_token) else None


def _escape_label_value(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _escape_help(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("\n", "\\n")


def _om_float(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return _influx_float(value)


def run_labels(run: WorkloadRun, source: dict) -> dict[str, str]:
    """The info sample's labels: where and how the run was measured, and its scalar parameters."""
    meta = run.document.get("metadata", {})
    dirty = source.get("git_dirty", meta.get("git_dirty"))
    labels = {
        "run_id": source["run_id"],
        "workload": run.workload,
        "host": source.get("host") or "",
        "git_commit": source.get("git_commit") or "",
        "git_dirty": "" if dirty is None else parameter_text(dirty),
        "build_configuration": source.get("build_configuration") or "",
        "swift_version": source.get("swift_version") or meta.get("swift_version") or "",
        "created_utc": source.get("created_utc") or "",
    }
    parameters = {f"param_{k}": v for k, v in flatten(source.get("parameters", {})).items()}
    names = label_names(list(parameters), set(labels))
    labels |= {names[k]: parameter_text(v) for k, v in parameters.items()}
    return {k: v for k, v in labels.items() if v != ""}


def run_ids(folders: list[ResultsFolder]) -> list[str]:
    """Every original run id in these folders (a merged folder lists its sources), in order."""
    return list(
        dict.fromkeys(
            str(s["run_id"]) for w in workloads(folders) for run in combined(folders, w) for s in run.sources()
        )
    )


def openmetrics(folders: list[ResultsFolder], timestamps: bool = True, only_run: str | None = None) -> str:
    """The export; with `only_run`, only that run's samples and info (one Pushgateway group per run)."""
    families: dict[str, dict] = {}
    info_lines = []
    seen: set[tuple[str, str]] = set()
    for workload in workloads(folders):
        for run in combined(folders, workload):
            names = label_names(run.factor_names, set(TAG_COLUMNS) | {"run_id", "workload"})
            times = run_times(run)
            for source in run.sources():
                if only_run is not None and str(source["run_id"]) != only_run:
                    continue
                stamp = f" {_om_seconds(times[source['run_id']])}" if timestamps else ""
                info_lines.append(
                    "patternbench_run_info{"
                    + ",".join(f'{k}="{_escape_label_value(v)}"' for k, v in run_labels(run, source).items())
                    + "} 1"
                    + stamp
                )
            for run_id, tags, metric, value, unit, ns in rows_of(run):
                if only_run is not None and str(run_id) != only_run:
                    continue
                name = metric_name(f"patternbench_{workload}_{metric}")
                family = families.setdefault(
                    name, {"metric": metric, "unit": unit, "workload": workload, "samples": []}
                )
                labels = {"run_id": run_id} | {names.get(k, k): v for k, v in tags.items()}
                label_text = ",".join(f'{k}="{_escape_label_value(v)}"' for k, v in labels.items())
                if (name, label_text) in seen:
                    raise InputError(
                        f"{run.folder / (workload + '.csv')}: two rows for {metric} with the same labels "
                        f"({labels}); OpenMetrics allows one sample per label set"
                    )
                seen.add((name, label_text))
                stamp = f" {_om_seconds(ns)}" if timestamps else ""
                family["samples"].append(f"{name}{{{label_text}}} {_om_float(value)}{stamp}")
    out = []
    if info_lines:
        # The text format 0.0.4 (Pushgateway, textfile collector) has no info type: there it is a gauge.
        run_family = "patternbench_run" if timestamps else "patternbench_run_info"
        out += [
            f"# TYPE {run_family} {'info' if timestamps else 'gauge'}",
            f"# HELP {run_family} One sample per PatternBench run: where and how it was measured, its parameters "
            f"(param_*); join on run_id.",
        ]
        out += info_lines
    for name, family in families.items():
        unit = om_unit(name, family["unit"])
        out.append(f"# TYPE {name} gauge")
        if unit and timestamps:
            out.append(f"# UNIT {name} {unit}")
        out.append(
            f"# HELP {name} "
            + _escape_help(
                f"PatternBench {family['workload']} metric {family['metric']} in {family['unit']} (results schema v1)"
            )
        )
        out += family["samples"]
    if timestamps:
        out.append("# EOF")
    return "\n".join(out) + "\n"


def export(folders: list[ResultsFolder], fmt: str, timestamps: bool = True, precision: str = "ns") -> str:
    if fmt == "influx":
        return influx(folders, precision)
    if fmt == "openmetrics":
        return openmetrics(folders, timestamps)
    raise InputError(f"unknown export format '{fmt}' (influx or openmetrics)")
