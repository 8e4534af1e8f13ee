"""One module per workload's charts; `render_all` draws whatever the folders hold."""
