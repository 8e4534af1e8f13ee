"""Charts render from the committed fixture: valid PNG and SVG, expected series, title, labels, footer."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import run_cli
from PIL import Image

from patternbench_analysis.charts.common import slug
from patternbench_analysis.charts.throttle import POLICY_ORDER
from patternbench_analysis.plot import render_all
from patternbench_analysis.results import load_folders

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def charts(tmp_path_factory):
    fixtures = Path(__file__).parent / "fixtures"
    folders = load_folders([fixtures / "run", fixtures / "sweep-max-age-60", fixtures / "sweep-max-age-100"])
    out = tmp_path_factory.mktemp("charts")
    return {c.name: c for c in render_all(folders, out, log=lambda m: None)}, folders


def svg_ids_and_text(path: Path) -> tuple[set[str], str]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    text = " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    return ids, text


def folders_probe_verdict() -> str:
    import json

    doc = json.loads((Path(__file__).parent / "fixtures/run/atomics.json").read_text())
    return doc["metadata"]["parameters"]["co_scheduling_probe"]["before"]["verdict"]


def check_files(chart):
    assert chart.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(chart.png) as image:
        image.verify()
    with Image.open(chart.png) as image:
        assert image.size[0] > 600 and image.size[1] > 300
    ids, text = svg_ids_and_text(chart.svg)
    return ids, text


def test_every_expected_chart_exists(charts):
    names = set(charts[0])
    assert names == {
        "throttle-frontier",
        "throttle-timeline-bursts",
        "throttle-timeline-storm-slow",
        "throttle-worst-second-bursts",
        "throttle-worst-second-storm-slow",
        "atomics-increment",
        "clock-error-heatmap",
    }


def test_throttle_frontier_has_every_policy_per_scenario_and_sweep_curves(charts):
    chart_map, folders = charts
    chart = chart_map["throttle-frontier"]
    ids, text = check_files(chart)
    for scenario in ("bursts", "storm-slow"):
        assert scenario in text
        for policy in POLICY_ORDER:
            assert f"series:{slug(scenario + '/' + policy)}" in ids
    assert "p99 latency (ms)" in text and "hitch ratio (ms of hitch per s)" in text
    assert {"pareto:bursts:sim", "pareto:storm-slow:sim"} <= ids and "Pareto front" in text
    assert any(i.startswith("errorbar:storm-slow-frame-budget") for i in ids) and "bars: min–max" in text
    assert ("logarithmic in" in text) == ("log scale" in text) and ("both axes linear" in text or "log scale" in text)
    for policy in ("immediate", "signal-adaptive", "frame-budget"):
        assert policy in text  # points are labelled, not only in the legend
    assert "p99 latency vs hitch ratio" in text and "policy" in text  # title and legend
    # The sweep: frame-budget at 30/60/100 ms max age is a curve, labelled with the values.
    assert "60 ms" in text and "200 ms" in text
    root = ET.parse(chart.svg).getroot()
    curve = next(e for e in root.iter() if e.get("id") == "series:storm-slow-frame-budget")
    path = next(curve.iter(f"{SVG}path"))
    assert path.get("d").count("L") >= 2  # three points joined by two segments
    run_ids = {r for f in folders for r in f.runs["throttle"].run_ids}
    assert any(r in text for r in run_ids) and "host vm" in text  # footer


def test_timeline_has_rows_and_lateness_per_policy(charts):
    chart = charts[0]["throttle-timeline-storm-slow"]
    ids, text = check_files(chart)
    for policy in ("immediate", "frame-budget", "debounce-last"):
        assert f"series:storm-slow-{policy}-rows" in ids
        assert f"series:storm-slow-{policy}-lateness" in ids
    assert "time (s)" in text and "lateness (ms)" in text and "rows per update" in text
    assert "storm-slow (seed 1, sim)" in text and "first of 2 seeds" in text
    assert "run throttle-" in text and "host vm" in text


def test_atomics_chart_shows_strategies_fairness_and_coscheduling(charts):
    chart = charts[0]["atomics-increment"]
    ids, text = check_files(chart)
    for strategy in ("atomic", "pthread-mutex", "nslock", "mutex", "dispatch-queue"):
        assert f"series:increment-0-0-live-{strategy}" in ids
        assert f"series:increment-0-0-live-{strategy}-fairness" in ids
    assert "ns per operation (log scale)" in text and "Jain fairness index" in text and "threads" in text
    probe = folders_probe_verdict()
    assert f"co-scheduling probe: {probe}" in text  # the probe's verdict from the fixture's parameters
    assert "took turns (co_scheduled_fraction < 0.9)" in text
    assert "threads not pinned" in text  # the fixture ran without --pin
    assert "lock strategy" in text and "run atomics-" in text
    root = ET.parse(chart.svg).getroot()
    assert any("log" in (e.text or "") for e in root.iter(f"{SVG}text"))
    assert "both axes logarithmic" in text and "bars: min–max" in text
    assert any(i.startswith("errorbar:increment-0-0-live-") for i in ids)  # spread over repetitions is drawn
    # in both panels: the fairness points are medians too
    assert any(i.startswith("errorbar:increment-0-0-live-") and i.endswith("-fairness") for i in ids)


def test_clock_heatmap_marks_negative_durations(charts):
    chart = charts[0]["clock-error-heatmap"]
    ids, text = check_files(chart)
    assert {"series:client-duration-meter", "series:client-call-duration", "series:client-timeout"} <= ids
    # The fixture's step-minus-1d makes date and realtime measure negative durations; monotonic never does.
    assert "negative:duration-meter:step-minus-1d:date" in ids
    assert "negative:duration-meter:step-minus-1d:realtime" in ids
    assert not any(i.startswith("negative:") and i.endswith(":monotonic") for i in ids)
    assert "clock source" in text and "skew scenario" in text and "timing error (µs" in text
    assert "negative durations measured" in text and "run clock-" in text


def test_svg_output_is_deterministic(tmp_path, fixtures):
    a = run_cli("plot", fixtures / "shard-1", "-o", tmp_path / "a")
    b = run_cli("plot", fixtures / "shard-1", "-o", tmp_path / "b")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert (tmp_path / "a/throttle-frontier.svg").read_bytes() == (tmp_path / "b/throttle-frontier.svg").read_bytes()


def test_cli_writes_png_and_svg_into_folder_charts_by_default(tmp_path, fixtures):
    import shutil

    folder = tmp_path / "shard-2"
    shutil.copytree(fixtures / "shard-2", folder)
    result = run_cli("plot", folder)
    assert result.returncode == 0, result.stderr
    written = sorted(Path(p).name for p in result.stdout.split())
    assert written == ["throttle-frontier.png", "throttle-frontier.svg"]
    assert (folder / "charts/throttle-frontier.png").exists()
    _ids, text = svg_ids_and_text(folder / "charts/throttle-frontier.svg")
    assert "host ci-runner-2" in text  # that shard really ran under another hostname


def test_one_colour_per_variant_in_every_chart():
    from patternbench_analysis.charts.common import color_map

    assert color_map(["frame-budget", "immediate"])["frame-budget"] == color_map(["frame-budget"])["frame-budget"]
    assert color_map(["a", "x-new-policy"])["x-new-policy"] == color_map(["x-new-policy"])["x-new-policy"]


def test_pareto_front_keeps_only_undominated_points():
    import pandas as pd

    from patternbench_analysis.charts.throttle import HITCH, P99, pareto_front

    points = pd.DataFrame({HITCH: [0, 1, 2, 3, 1.5], P99: [100, 50, 60, 10, 40]})
    assert pareto_front(points)[[HITCH, P99]].values.tolist() == [[0, 100], [1, 50], [1.5, 40], [3, 10]]


def test_worst_second_draws_the_top_policies_around_their_worst_update(charts):
    import pandas as pd

    from patternbench_analysis.charts.throttle_worst import TOP, top_policies

    chart_map, folders = charts
    chart = chart_map["throttle-worst-second-storm-slow"]
    ids, text = check_files(chart)
    runs = [f.runs["throttle"] for f in folders if "throttle" in f.runs]
    events = pd.concat([f.events for f in folders if f.events is not None], ignore_index=True)
    top = top_policies(runs, "storm-slow", "sim", set(events["variant"]))
    assert len(top) == TOP and [p for p, _ in top] == chart.series
    assert [p99 for _, p99 in top] == sorted(p99 for _, p99 in top)  # best first
    for policy, p99 in top:
        assert f"series:storm-slow-{policy}-updates" in ids
        assert f"p99 {p99:.1f} ms" in text
    assert text.count(": worst at ") == TOP and (
        "ms since the previous update" in text or "ms since the run began" in text
    )
    assert "wait since the previous update" in text
    assert "storm-slow (seed 1, sim)" in text and "run throttle-" in text


def test_worst_update_is_the_largest_wait_plus_cost_plus_lateness():
    import pandas as pd

    from patternbench_analysis.charts.throttle_worst import worst_update

    updates = pd.DataFrame(
        {
            "time_ms": [100.0, 150.0, 400.0, 420.0],
            "cost_ms": [2.0, 30.0, 1.0, 1.0],
            "frame_lateness_ms": [0.0, 16.7, float("nan"), 0.0],
        }
    )
    worst, previous = worst_update(updates)
    assert worst["time_ms"] == 400.0 and previous == 0.15  # 250 ms waited beats 50 + 30 + 16.7
    updates.loc[1, "cost_ms"] = 300.0
    worst, previous = worst_update(updates)
    assert worst["time_ms"] == 150.0 and previous == 0.1
    assert worst_update(updates.iloc[0:0]) is None


def throttle_only(fixtures: Path, folder: Path, events: bool = False) -> Path:
    """fixtures/run's throttle run alone (and its events when asked): the throttle charts' tests draw
    no other workload's charts, and without the events no timelines."""
    import shutil

    folder.mkdir(parents=True)
    for name in ("throttle.json", "throttle.csv", *(["events.csv"] if events else [])):
        shutil.copy(fixtures / "run" / name, folder / name)
    return folder


def test_frontier_with_no_hitch_anywhere_gives_each_policy_its_own_row(tmp_path, fixtures):
    """Every policy at 0 hitch stacked every point and label in one column; now one row each."""
    import re

    folder = throttle_only(fixtures, tmp_path / "run")
    lines = (folder / "throttle.csv").read_text().splitlines()
    header = lines[0].split(",")
    metric, value = header.index("metric"), header.index("value")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        if cells[metric] == "hitch_ms_per_s":
            cells[value] = "0"
        out.append(",".join(cells))
    (folder / "throttle.csv").write_text("\n".join(out) + "\n")
    charts = {c.name: c for c in render_all(load_folders([folder]), tmp_path / "charts", log=lambda m: None)}
    chart = charts["throttle-frontier"]
    ids, text = check_files(chart)
    assert "every policy, every seed: 0 hitch" in text and "no policy hitches in any seed in bursts, storm-slow" in text
    assert "p99 latency per policy (no policy hitches)" in text
    assert "hitch ratio (ms of hitch per s)" not in text and "Pareto" not in text  # no degenerate hitch axis
    for scenario in ("bursts", "storm-slow"):
        assert f"series:{slug(scenario + '/frame-budget')}" in ids
    # The policy names are tick labels at distinct heights (no column of overlapping labels).
    root = ET.parse(chart.svg).getroot()
    heights = {}
    for e in root.iter(f"{SVG}text"):
        name = "".join(e.itertext()).strip()
        if name in ("immediate", "fixed-rate", "signal-adaptive", "frame-budget"):
            match = re.search(r"translate\(([-0-9.]+) ([-0-9.]+)\)", e.get("transform") or "")
            y = float(match.group(2)) if match else float(e.get("y", "nan"))
            heights.setdefault(name, []).append(round(y, 1))
    assert len(heights) == 4
    first_panel = [ys[0] for ys in heights.values()]
    assert len(set(first_panel)) == 4, heights


def test_events_in_every_workloads_format_are_read_and_filtered(tmp_path, fixtures):
    """The `--events` of every bench-* (TIMELINE_COLUMNS) reads beside the older throttle file; the
    throttle charts keep only bench-throttle's update rows."""

    import pandas as pd

    from patternbench_analysis.charts.throttle import update_rows
    from patternbench_analysis.results import TIMELINE_COLUMNS, load_folder

    old = load_folder(fixtures / "run").events
    assert list(old.columns) == TIMELINE_COLUMNS and set(old["event"]) == {"update"}
    folder = throttle_only(fixtures, tmp_path / "run")
    other = old.head(3).assign(workload="readiness", event="polite", track="main", kind="slice", rows=0)
    counter = old.head(2).assign(
        event="rows", track="pending rows", kind="counter", value=7.0, frame_lateness_ms=float("nan")
    )
    pd.concat([old, other, counter]).to_csv(folder / "events.csv", index=False, na_rep="")
    events = load_folder(folder).events
    assert len(events) == len(old) + 5 and events["value"].isna().sum() == len(old) + 3
    assert len(update_rows(events)) == len(old)
    charts = {c.name for c in render_all(load_folders([folder]), tmp_path / "charts", log=lambda m: None)}
    assert {"throttle-timeline-bursts", "throttle-worst-second-bursts"} <= charts


def three_seed_throttle_run(folder: Path, fixtures: Path, hitch_of_one_seed: float) -> Path:
    """The fixture's throttle run with a third seed (a copy of seed 1) and every hitch 0, except
    bursts/debounce-last seed 2, which hitches `hitch_of_one_seed`: its median over the seeds is 0."""
    throttle_only(fixtures, folder)
    lines = (folder / "throttle.csv").read_text().splitlines()
    header = lines[0].split(",")
    column = {name: header.index(name) for name in ("scenario", "variant", "seed", "metric", "value")}
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        if cells[column["metric"]] == "hitch_ms_per_s":
            one = (cells[column["scenario"]], cells[column["variant"]], cells[column["seed"]])
            cells[column["value"]] = str(hitch_of_one_seed) if one == ("bursts", "debounce-last", "2") else "0"
        out.append(",".join(cells))
        if cells[column["seed"]] == "1":
            out.append(",".join([*cells[: column["seed"]], "3", *cells[column["seed"] + 1 :]]))
    (folder / "throttle.csv").write_text("\n".join(out) + "\n")
    return folder


@pytest.mark.parametrize("hitch", [0.8, 0.0])
def test_frontier_says_0_hitch_only_when_every_seed_shows_it(tmp_path, fixtures, hitch):
    """One seed in three of one policy hitches (the median is still 0): bursts is a frontier, not a
    "0 hitch" panel; the control, the same run with that seed at 0, is a "0 hitch" panel."""
    folder = three_seed_throttle_run(tmp_path / "run", fixtures, hitch)
    charts = {c.name: c for c in render_all(load_folders([folder]), tmp_path / "charts", log=lambda m: None)}
    _, text = check_files(charts["throttle-frontier"])
    assert "n=3 seeds" in text
    says_no_hitch = "bursts (every policy, every seed: 0 hitch)" in text
    assert says_no_hitch == (hitch == 0.0), text[:600]
    assert ("hitch ratio (ms of hitch per s)" in text) == (hitch != 0.0)
