"""The analysis side's workload registry: per workload, its charts and its headline tables.

Each workload registers one `View` in a module of its own, `views/<workload>.py` (a module-level
`VIEW`); `plot` and the report look a workload up here instead of branching on its name, so a
workload's drawing and tables live in one place. The names must be exactly the Swift registry's
(`workloads.json`, from `bench-gate --list-workloads --json`): `mismatches` names the side that
lacks a workload, and test_view_registry.py fails on any. scripts/new-workload writes a new
workload's `views/<name>.py` (the generic view) with the rest of its files."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .charts import generic
from .charts.common import Chart
from .headlines import Table, comparison_tables, generic_tables
from .results import WorkloadRun
from .run_set import RunSet
from .workloads import registry

VIEWS = Path(__file__).with_name("views")


@dataclass(frozen=True)
class ChartRequest:
    """What a workload's charts are drawn into and from beyond its own runs."""

    out_dir: Path
    max_timelines: int | None
    run_set: RunSet  # the whole set: throttle's timelines read every folder's `--events`


@dataclass(frozen=True)
class View:
    """How the report shows one workload.

    `charts` may return None for a chart whose rows the runs lack; `tables` returns the headline
    tables (the generic summary when the runs hold none of a dedicated table's rows); `probe`, when
    set, is one line the report prints above the tables."""

    workload: str
    charts: Callable[[list[WorkloadRun], ChartRequest], list[Chart | None]]
    tables: Callable[[list[WorkloadRun]], list[Table]]
    probe: Callable[[list[WorkloadRun]], str] | None = None


def or_generic(tables: Callable[[list[WorkloadRun]], list[Table]]) -> Callable[[list[WorkloadRun]], list[Table]]:
    """A dedicated table, or the generic summary when the runs hold none of its rows."""
    return lambda runs: tables(runs) or generic_tables(runs)


def single_chart(draw: Callable[[list[WorkloadRun], Path], Chart | None]) -> Callable:
    """A workload drawn as one chart."""
    return lambda runs, request: [draw(runs, request.out_dir)]


def generic_view(workload: str) -> View:
    """A workload without charts or tables of its own yet: medians per scenario and variant."""
    return View(workload=workload, charts=single_chart(generic.medians), tables=generic_tables)


@cache
def views() -> dict[str, View]:
    """Every registered view by workload, in the Swift registry's order (unknown names last)."""
    found: dict[str, View] = {}
    for path in sorted(VIEWS.glob("*.py")):
        if path.name.startswith("_"):
            continue
        view = getattr(importlib.import_module(f"{__package__}.views.{path.stem}"), "VIEW", None)
        if not isinstance(view, View):
            raise TypeError(f"{path}: defines no VIEW (a view_registry.View)")
        if view.workload in found:
            raise TypeError(f"{path}: a second view of workload '{view.workload}'")
        found[view.workload] = view
    order = list(registry())
    return dict(sorted(found.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)))


def view_for(workload: str) -> View | None:
    return views().get(workload)


def mismatches(swift: Iterable[str], python: Iterable[str]) -> list[str]:
    """One sentence per workload registered on one side only."""
    swift, python = list(swift), list(python)
    return [
        f"workload '{w}' is in the Swift registry (workloads.json) but has no view: add "
        f"analysis/patternbench_analysis/views/{w}.py defining VIEW (scripts/new-workload writes one)"
        for w in swift
        if w not in python
    ] + [
        f"analysis/patternbench_analysis/views/{w}.py registers workload '{w}', which the Swift registry "
        "(workloads.json) lacks: remove the view or regenerate workloads.json"
        for w in python
        if w not in swift
    ]


def tables_for(workload: str, runs: list[WorkloadRun]) -> list[Table]:
    """The workload's headline tables, then live beside simulated values where the runs have both."""
    view = view_for(workload)
    return (view.tables(runs) if view else generic_tables(runs)) + comparison_tables(runs)
