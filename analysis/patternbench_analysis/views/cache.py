"""cache: hit ratio against capacity, and the hit ratio at each trace's own cache size."""

from __future__ import annotations

from ..charts.cache import VARIANT_ORDER as CACHE_ORDER
from ..charts.cache import hit_ratio_vs_capacity, sweep_table
from ..headlines import Table, counts_text, fmt
from ..results import WorkloadRun
from ..view_registry import View, or_generic, single_chart


def cache_tables(runs: list[WorkloadRun]) -> list[Table]:
    """Main-app hit ratio per trace at the trace's own (Signal) cache size; bold: the best policy."""
    data = sweep_table(runs)
    if data.empty:
        return []
    sizes = {
        sc["name"]: int(sc["max_size"])
        for r in runs
        for sc in r.document.get("metadata", {}).get("parameters", {}).get("scenarios", [])
        if "max_size" in sc
    }
    present = list(dict.fromkeys(data["variant"]))
    variants = [v for v in CACHE_ORDER if v in present] + [v for v in present if v not in CACHE_ORDER]
    rows, bold = [], set()
    for i, scenario in enumerate(dict.fromkeys(data["scenario"])):
        sub = data[data["scenario"] == scenario]
        size = sizes.get(scenario, int(sub["capacity"].max()))
        at = sub[sub["capacity"] == size].set_index("variant")
        cells = []
        for v in variants:
            if v not in at.index:
                cells.append("–")
                continue
            low, high = at.loc[v, "hit_ratio_min"], at.loc[v, "hit_ratio_max"]
            cells.append(fmt(at.loc[v, "hit_ratio"]) + ("" if low == high else f" ({fmt(low)}–{fmt(high)})"))
        rows.append([f"{scenario} @ {size}", counts_text(at["n"]), *cells])
        if len(at):
            bold.add((i, 2 + variants.index(at["hit_ratio"].idxmax())))
    return [
        Table(
            caption="hit ratio in the main app at each trace's own cache size: median (min–max) over n seeds, "
            "the range shown where the seeds differ; bold: best median",
            header=["trace @ capacity", "n", *variants],
            rows=rows,
            bold=bold,
        )
    ]


VIEW = View(workload="cache", charts=single_chart(hit_ratio_vs_capacity), tables=or_generic(cache_tables))
