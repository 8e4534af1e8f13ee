"""The analysis package covers every workload of the registry (workloads.json, the Swift
`WorkloadRegistry`'s output, kept equal to it by the Swift test `WorkloadRegistryTests`)."""

from __future__ import annotations

from pathlib import Path

from patternbench_analysis.charts import generic
from patternbench_analysis.charts.common import slug
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import combined, load_folders
from patternbench_analysis.workloads import registry

BASELINE = Path(__file__).resolve().parents[2] / "results" / "baseline"


def uncharted(messages: list[str]) -> list[str]:
    """The workloads `render_all` said it has no charts for."""
    return [w for w in registry() if any(f"no charts for workload '{w}'" in m for m in messages)]


def test_the_registry_reads_with_its_factor_types():
    workloads = registry()
    assert list(workloads)[:3] == ["throttle", "atomics", "clock"]
    assert workloads["cache"].numeric_factors == ("capacity", "threads")
    assert workloads["cache"].text_factors == ("context",)
    assert all(w.executable == f"bench-{w.name}" for w in workloads.values())


def test_every_workload_of_the_baseline_gets_its_charts(tmp_path: Path):
    """Every workload has a view that draws (view_registry): the committed baseline holds one run of
    each and each gets at least one chart, with no "no charts for workload" note."""
    messages: list[str] = []
    folders = load_folders([BASELINE])
    assert sorted(folders[0].runs) == sorted(registry()), "results/baseline and the registry differ"
    charts = render_all(folders, tmp_path, max_timelines=1, log=messages.append)
    assert uncharted(messages) == [], f"add a view for each in analysis/patternbench_analysis/views/: {messages}"
    assert {c.workload for c in charts} >= set(registry())


def test_an_uncharted_workload_is_named():
    """The control: the note render_all logs for a workload without charts is found by name."""
    assert uncharted(["note: no charts for workload 'cache' (its numbers are still in the report)"]) == ["cache"]


def test_the_generic_chart_draws_any_workload(tmp_path: Path):
    """charts/generic.py, which draws a workload without a chart of its own (the view
    scripts/new-workload writes for a new one), draws a real run: one bar per metric, scenario and variant, each
    tagged in the SVG with its series."""
    folders = load_folders([BASELINE])
    runs = combined(folders, "invalidation")
    chart = generic.medians(runs, tmp_path)
    assert chart is not None and chart.workload == "invalidation"
    table = runs[0].table
    metrics = list(dict.fromkeys(table["metric"]))[: generic.MAX_METRICS]
    pairs = {(s, v) for s, v in zip(table["scenario"], table["variant"], strict=True)}
    assert len(chart.series) == len(metrics) * len(pairs)
    svg = chart.svg.read_text(encoding="utf-8")
    assert all(f'id="series:{slug(name)}"' in svg for name in chart.series)
