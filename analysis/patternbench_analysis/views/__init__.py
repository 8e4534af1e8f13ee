"""One module per workload: its `VIEW` (view_registry.View), the charts and headline tables the report
shows for it. view_registry finds them by file; a module starting with `_` is not a view."""
