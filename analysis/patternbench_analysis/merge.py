"""`merge`: results folders from several machines (e.g. the shards of a CI matrix) into one.

The merged folder is itself a schema-version-1 results folder, so plot, report, export and the
regression gate read it like any other:

- `<workload>.csv`: every input's rows, byte for byte, each keeping its own `run_id` and `host`;
- `<workload>.json`: the records likewise; summaries recomputed over the union (the same rule as
  `Statistics.summarize`); a new run id `<workload>-<latest created_utc>-<hash of the sources>`;
  `metadata.parameters.merged_from` lists every source run (id, host, created, build, its
  parameters); parameters equal in every source are kept at the top level;
- the `--events` timelines, concatenated into `events.csv`.

Refused, with one line and exit status 1: a missing or empty folder, mixed schema versions, a
folder that is not schema version 1, different factor columns for one workload, and run ids that
occur in more than one input.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from .results import (
    EVENTS_FILE,
    SCHEMA_VERSION,
    InputError,
    ResultsFolder,
    WorkloadRun,
    check_distinct_runs,
    load_folder,
)


def _schema_versions(paths: list[Path]) -> None:
    """Mixed schema versions are named as such, before any single file is refused for its version."""
    versions: dict[object, Path] = {}
    for folder in paths:
        if not folder.is_dir():
            continue
        for json_path in sorted(folder.glob("*.json")):
            if json_path.name == "gate.json":
                continue
            try:
                version = json.loads(json_path.read_text(encoding="utf-8")).get("schema_version")
            except (OSError, ValueError, AttributeError):
                continue  # the reader reports it properly
            versions.setdefault(json.dumps(version), json_path)
    if len(versions) > 1:
        described = ", ".join(f"{path} is {v}" for v, path in versions.items())
        raise InputError(f"cannot merge mixed schema versions: {described}")


def _number(value):
    """JSON numbers as Swift writes them: non-finite values as the strings inf, -inf, nan."""
    if isinstance(value, str) and value in ("inf", "-inf", "nan"):
        return float(value)
    return value


def _json_number(value: float):
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if value == int(value) and abs(value) < 1e15 else value


def summarize(records: list[dict]) -> list[dict]:
    """Statistics.summarize in Python: per (scenario, variant, mode, factors, metric), first-seen order."""
    groups: dict[tuple, dict] = {}
    for r in records:
        key = (r["scenario"], r["variant"], r["mode"], json.dumps(r.get("factors", {}), sort_keys=True), r["metric"])
        group = groups.setdefault(key, {"unit": r["unit"], "factors": r.get("factors", {}), "values": []})
        group["values"].append(float(_number(r["value"])))
    rows = []
    for (scenario, variant, mode, _, metric), g in groups.items():
        values = sorted(g["values"])
        n, mid = len(values), len(values) // 2
        median = values[mid] if n % 2 else (values[mid - 1] + values[mid]) / 2
        rows.append(
            {
                "scenario": scenario,
                "variant": variant,
                "mode": mode,
                "factors": g["factors"],
                "metric": metric,
                "unit": g["unit"],
                "count": n,
                "median": _json_number(median),
                "min": _json_number(values[0]),
                "max": _json_number(values[-1]),
                "mean": _json_number(sum(values) / n),
            }
        )
    return rows


def _source_entries(run: WorkloadRun) -> list[dict]:
    """What `merged_from` records of each source run (flattening folders that were merged before)."""
    meta = run.document.get("metadata", {})
    merged = meta.get("parameters", {}).get("merged_from")
    if isinstance(merged, list) and merged:
        return merged
    return [
        {
            "run_id": run.document["run_id"],
            "host": meta.get("host", {}).get("hostname"),
            "host_info": meta.get("host", {}),
            "created_utc": run.document.get("created_utc"),
            "git_commit": meta.get("git_commit"),
            "git_dirty": meta.get("git_dirty"),
            "swift_version": meta.get("swift_version"),
            "build_configuration": meta.get("build_configuration"),
            # Absent in documents from before arrival stream version 2, which all drew from version 1.
            "random_stream_version": meta.get("random_stream_version", 1),
            "command_line": meta.get("command_line", []),
            "parameters": meta.get("parameters", {}),
            "folder": str(run.folder),
        }
    ]


def _common(values: list, mixed: bool = False):
    """The value every source agrees on; else None, or "mixed: a, b" where a string is required."""
    distinct = list(dict.fromkeys(values))
    if len(distinct) == 1:
        return distinct[0]
    return "mixed: " + ", ".join(str(v) for v in distinct) if mixed else None


def _shard_note(sources: list[dict]) -> str | None:
    shards = [s.get("parameters", {}).get("shard") for s in sources]
    if not any(shards):
        return None
    parsed = set()
    for shard in shards:
        try:
            index, count = (int(x) for x in str(shard).split("/"))
            parsed.add((index, count))
        except ValueError:
            return "merged runs mix sharded and unsharded runs; check that the matrix is what you expect"
    counts = {c for _, c in parsed}
    if len(counts) != 1:
        return f"merged shards come from different splits ({', '.join(sorted(str(s) for s in shards))})"
    total = counts.pop()
    missing = sorted(set(range(1, total + 1)) - {i for i, _ in parsed})
    if missing:
        return f"shards {', '.join(f'{i}/{total}' for i in missing)} missing: the merged matrix is incomplete"
    return None


def merged_document(workload: str, runs: list[WorkloadRun], command_line: list[str]) -> dict:
    factor_names = runs[0].raw_factor_names
    for run in runs[1:]:
        if run.raw_factor_names != factor_names:
            raise InputError(
                f"{run.folder / (workload + '.json')}: factor columns {run.raw_factor_names} differ from "
                f"{runs[0].folder / (workload + '.json')}'s {factor_names}; cannot merge"
            )
    records, comparisons, notes, sources = [], [], [], []
    for run in runs:
        recs = run.document["records"]
        if len(recs) != len(run.table):
            raise InputError(
                f"{run.folder}: {workload}.csv has {len(run.table)} rows but {workload}.json "
                f"{len(recs)} records; the folder is damaged"
            )
        records += recs
        comparisons += run.document.get("comparisons", [])
        source_ids = ",".join(run.run_ids)
        notes += [n if n.startswith("[") else f"[{source_ids}] {n}" for n in run.notes]
        sources += _source_entries(run)
    streams = sorted({s.get("random_stream_version", 1) for s in sources}, key=str)
    if len(streams) > 1:
        raise InputError(
            f"cannot merge {workload} runs of random stream versions {', '.join(map(str, streams))}: "
            "their virtual-time values come from different streams"
        )
    created = max(str(s.get("created_utc") or "") for s in sources)
    digest = hashlib.sha256("\n".join(sorted(s["run_id"] for s in sources)).encode()).hexdigest()[:8]
    stamp = created.replace("-", "").replace(":", "")
    run_id = f"{workload}-{stamp}-{digest}"
    first = runs[0].document["metadata"]
    parameters = {}
    for key, value in sources[0].get("parameters", {}).items():
        if key in ("shard", "items"):
            continue
        if all(
            json.dumps(s.get("parameters", {}).get(key), sort_keys=True) == json.dumps(value, sort_keys=True)
            for s in sources
        ):
            parameters[key] = value
    parameters["merged_from"] = sources
    parameters["shards"] = [s.get("parameters", {}).get("shard") for s in sources]
    hosts = sorted({str(s.get("host")) for s in sources})
    notes.append(
        f"merged from {len(sources)} runs on {len(hosts)} host(s) ({', '.join(hosts)}); each row's host column "
        f"says where it was measured, metadata.host is the first source's"
    )
    shard_note = _shard_note(sources)
    if shard_note:
        notes.append(shard_note)
    builds = {s.get("build_configuration") for s in sources}
    if len(builds) > 1:
        notes.append(
            f"merged runs mix build configurations ({', '.join(sorted(map(str, builds)))}): do not compare their timings"
        )
    return {
        # The sources' version (one, checked by _schema_versions): their CSV rows are copied as they are.
        "schema_version": runs[0].document.get("schema_version", SCHEMA_VERSION),
        "run_id": run_id,
        "workload": workload,
        "created_utc": created,
        "metadata": {
            "git_commit": _common([s.get("git_commit") for s in sources]),
            "swift_version": _common([s.get("swift_version") for s in sources], mixed=True),
            "build_configuration": _common([s.get("build_configuration") for s in sources], mixed=True),
            "random_stream_version": streams[0],
            "host": first.get("host", {}),
            "command_line": command_line,
            "parameters": parameters,
        },
        "factor_names": factor_names,
        "records": records,
        "summaries": summarize(records),
        "comparisons": comparisons,
        "notes": notes,
    }


def _prepare_output(output: Path, inputs: list[Path], force: bool) -> None:
    resolved = output.resolve()
    for folder in inputs:
        if folder.resolve() == resolved:
            raise InputError(f"output folder {output} is one of the inputs")
    if output.exists():
        if not output.is_dir():
            raise InputError(f"output {output} exists and is not a folder")
        existing = [p for p in output.iterdir() if p.suffix in (".csv", ".json", ".md")]
        if existing and not force:
            raise InputError(
                f"output folder {output} already holds results ({existing[0].name}); pass --force to replace them"
            )
        for p in existing:
            p.unlink()
    output.mkdir(parents=True, exist_ok=True)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _concatenate_csv(paths: list[Path]) -> str:
    header, body = None, []
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        if not lines:
            continue
        if header is None:
            header = lines[0]
        body += [line if line.endswith("\n") else line + "\n" for line in lines[1:]]
    return (header or "") + "".join(body)


def merge_folders(
    inputs: list[Path], output: Path, force: bool = False, allow_missing_shards: bool = False
) -> list[Path]:
    if not inputs:
        raise InputError("no results folder given to merge")
    _schema_versions(inputs)
    folders: list[ResultsFolder] = [load_folder(p) for p in inputs]
    check_distinct_runs(folders)
    command_line = ["pb-analysis", "merge", *map(str, inputs), "--output", str(output)]
    written = []
    names = [w for w in ("throttle", "atomics", "clock") if any(w in f.runs for f in folders)]
    names += sorted({w for f in folders for w in f.runs} - set(names))
    documents = {}
    for workload in names:
        runs = [f.runs[workload] for f in folders if workload in f.runs]
        documents[workload] = (runs, merged_document(workload, runs, command_line))
        missing = _shard_note([e for r in runs for e in _source_entries(r)])
        if missing and "missing" in missing and not allow_missing_shards:
            raise InputError(
                f"{workload}: {missing}; refusing to write a partial matrix "
                "(pass --allow-missing-shards to merge anyway, with a note in the JSON)"
            )
    _prepare_output(output, inputs, force)
    for workload, (runs, document) in documents.items():
        csv_path, json_path = output / f"{workload}.csv", output / f"{workload}.json"
        _write_atomic(csv_path, _concatenate_csv([r.folder / f"{workload}.csv" for r in runs]))
        _write_atomic(json_path, json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
        written += [csv_path, json_path]
    events = [f.events_path for f in folders if f.events_path is not None]
    if events:
        events_path = output / EVENTS_FILE
        _write_atomic(events_path, _concatenate_csv(events))
        written.append(events_path)
    # What we wrote must read back as a results folder.
    load_folder(output)
    return written
