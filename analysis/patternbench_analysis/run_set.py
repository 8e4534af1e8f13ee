"""`RunSet`: results folders loaded once and grouped by workload, handed to the report and its charts.

The report draws every workload's charts, then writes the page and the summary, each of which
walks the workloads and their runs; before, each of these steps grouped the folders again. A
`RunSet` groups them once, and every step reads the same lists."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import pandas as pd

from .results import ResultsFolder, WorkloadRun, combined, workloads


@dataclass(frozen=True)
class RunSet:
    """The folders, their workloads in the report's order, and each workload's runs over all folders."""

    folders: tuple[ResultsFolder, ...]
    workloads: tuple[str, ...]
    by_workload: dict[str, list[WorkloadRun]]

    @classmethod
    def of(cls, folders: RunSet | Sequence[ResultsFolder]) -> RunSet:
        """Groups `folders` (loaded by `load_folders`); a `RunSet` is returned as it is."""
        if isinstance(folders, RunSet):
            return folders
        listed = list(folders)
        names = workloads(listed)
        return cls(folders=tuple(listed), workloads=tuple(names), by_workload={w: combined(listed, w) for w in names})

    def runs(self, workload: str) -> list[WorkloadRun]:
        return self.by_workload.get(workload, [])

    @cached_property
    def events(self) -> pd.DataFrame | None:
        """Every folder's `--events` timeline in one table, or None when no folder has one."""
        tables = [f.events for f in self.folders if f.events is not None]
        return pd.concat(tables, ignore_index=True) if tables else None
