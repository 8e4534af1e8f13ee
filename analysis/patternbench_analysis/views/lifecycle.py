"""lifecycle: the outcomes chart; the generic table of every metric."""

from __future__ import annotations

from ..charts.lifecycle import outcomes
from ..headlines import generic_tables
from ..view_registry import View, single_chart

VIEW = View(workload="lifecycle", charts=single_chart(outcomes), tables=generic_tables)
