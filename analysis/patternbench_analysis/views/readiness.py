"""readiness: the launch chart; the generic table of every metric."""

from __future__ import annotations

from ..charts.readiness import launch
from ..headlines import generic_tables
from ..view_registry import View, single_chart

VIEW = View(workload="readiness", charts=single_chart(launch), tables=generic_tables)
