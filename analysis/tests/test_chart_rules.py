"""The rules every chart shares (charts/common.py), each with the case that must not trigger it."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from patternbench_analysis.charts import common


def scale_of(values) -> tuple[str, str]:
    fig, ax = plt.subplots()
    ax.plot(range(len(values)), values)
    common.scale_axis(ax, "y", values, "p99 (ms)")
    result = ax.get_yscale(), ax.get_ylabel()
    plt.close(fig)
    return result


def test_an_axis_spanning_more_than_20x_is_logarithmic_and_not_at_20x():
    assert scale_of([5.0, 50.0, 105.0]) == ("log", "p99 (ms), log scale")  # 21×
    assert scale_of([5.0, 50.0, 100.0]) == ("linear", "p99 (ms), linear")  # 20×: the control
    scale, label = scale_of([0.0, 5.0, 500.0])  # zeros kept on the axis
    assert scale == "symlog" and "log scale" in label


def test_a_caption_of_zero_needs_every_seed_at_zero():
    table = pd.DataFrame({"k": ["a"] * 3 + ["b"] * 3, "value": [0.0, 0.0, 0.8, 0.0, 0.0, 0.0]})
    summary = common.seed_summary(table, ["k"])
    assert summary.loc["a", "median"] == 0.0  # the median alone would say "0"
    assert not common.every_seed_zero(summary["max"])
    assert common.every_seed_zero(summary.loc[["b"], "max"])  # the control: every seed at 0
    assert "n=3 seeds" in common.spread_text(summary["n"])


def test_identical_series_are_grouped_and_different_ones_are_not():
    curves = {"lru": [1.0, 0.5], "signal-2018": [1.0, 0.5], "fifo": [1.0, 0.49], "signal-2021": [1.0, 0.5]}
    assert common.identical_groups(curves) == [["lru", "signal-2018", "signal-2021"], ["fifo"]]
    assert common.merged_label(["lru", "signal-2018", "signal-2021"]) == "lru = signal-2018\n= signal-2021 (identical)"
    assert common.merged_label(["fifo"]) == "fifo"
