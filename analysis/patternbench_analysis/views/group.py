"""group: the cost chart; the generic table of every metric."""

from __future__ import annotations

from ..charts.group import cost
from ..headlines import generic_tables
from ..view_registry import View, single_chart

VIEW = View(workload="group", charts=single_chart(cost), tables=generic_tables)
