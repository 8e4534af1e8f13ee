"""skeleton: drawn and tabled by the generic view (medians per scenario and variant, every metric's
summary) until it has charts and tables of its own (docs/architecture.md, "Adding a workload with
the scaffold")."""

from __future__ import annotations

from ..view_registry import generic_view

VIEW = generic_view("skeleton")
