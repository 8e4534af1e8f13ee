"""`runs`: one row per run with its metadata and scalar parameters, the documented join for the tidy CSVs.

The `<workload>.csv` files hold one row per measured value and name their run in `run_id`; the run's
parameters (`--max-age-ms` of a sweep, the seeds, the shard, …) live in the JSON. This table puts
them in columns (`param_<name>`, nested names joined with `_`), so one merge on `run_id` gives every
row its run's parameters:

    df = pd.read_csv("sweep/60/throttle.csv").merge(pd.read_csv("runs.csv"), on="run_id")
"""

from __future__ import annotations

import re

import pandas as pd

from .results import ResultsFolder, combined, flatten_parameters, workloads

# `user_package_*`: the user's package a run of a user's executable came from (metadata `user_package`,
# results/README.md), beside PatternBench's `git_commit`; empty for the suite's own tools.
META_COLUMNS = [
    "run_id",
    "workload",
    "created_utc",
    "host",
    "git_commit",
    "git_dirty",
    "build_configuration",
    "swift_version",
    "random_stream_version",
    "user_package_name",
    "user_package_git_commit",
    "user_package_git_dirty",
]


def column_name(parameter: str) -> str:
    return "param_" + re.sub(r"[^A-Za-z0-9_]", "_", parameter)


def runs_frame(folders: list[ResultsFolder]) -> pd.DataFrame:
    rows = []
    for workload in workloads(folders):
        for run in combined(folders, workload):
            for source in run.sources():
                row = {
                    "run_id": source["run_id"],
                    "workload": workload,
                    "created_utc": source.get("created_utc"),
                    "host": source.get("host"),
                    "git_commit": source.get("git_commit"),
                    "git_dirty": source.get("git_dirty"),
                    "build_configuration": source.get("build_configuration"),
                    "swift_version": source.get("swift_version"),
                    # results/README.md: absent in documents from before arrival stream version 2, read as version 1.
                    "random_stream_version": source.get("random_stream_version", 1),
                }
                package = source.get("user_package") or {}
                row.update(
                    {
                        "user_package_name": package.get("name"),
                        "user_package_git_commit": package.get("git_commit"),
                        "user_package_git_dirty": package.get("git_dirty"),
                    }
                )
                for name, value in flatten_parameters(source.get("parameters", {})).items():
                    row.setdefault(column_name(name), value)
                rows.append(row)
    frame = pd.DataFrame(rows)
    params = sorted(c for c in frame.columns if c not in META_COLUMNS)
    return frame[[c for c in META_COLUMNS if c in frame.columns] + params]
