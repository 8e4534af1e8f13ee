"""invalidation: staleness against cost; the generic table of every metric."""

from __future__ import annotations

from ..charts.invalidation import staleness_cost
from ..headlines import generic_tables
from ..view_registry import View, single_chart

VIEW = View(workload="invalidation", charts=single_chart(staleness_cost), tables=generic_tables)
