"""Command line: python3 -m patternbench_analysis {plot,report,compare,export,runs,merge,history} ...

Bad input ends with one line on stderr and exit status 1; usage errors, and a path that is missing, in
the way or not writable (`-o EXISTING_FILE`, an unwritable folder, a missing results folder), exit
with 2 (see outputs.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

REQUIRED = ["numpy", "pandas", "matplotlib"]  # what every command imports; see analysis/requirements.txt


def _missing_dependency() -> str | None:
    return next((name for name in REQUIRED if importlib.util.find_spec(name) is None), None)


if __name__ == "__main__" and _missing_dependency():
    print(
        f"pb-analysis: error: the Python package '{_missing_dependency()}' is missing for {sys.executable}; install "
        "the dependencies into a virtual environment: python3 -m venv .venv && .venv/bin/pip install -r "
        "analysis/requirements.txt (scripts/pb-analysis then uses .venv by itself)",
        file=sys.stderr,
    )
    sys.exit(1)

from . import outputs  # noqa: E402
from .results import InputError, load_folder, load_folders  # noqa: E402


def _progress(args, command: str):
    """One line per step on stderr (what is being drawn, with the seconds so far); `--quiet` drops them."""
    import time

    if getattr(args, "quiet", False):
        return lambda message: None
    start = time.monotonic()
    return lambda message: print(
        f"{command}: {message} ({time.monotonic() - start:.0f} s)", file=sys.stderr, flush=True
    )


def _plot(args) -> int:
    from .plot import render_all

    if args.output:
        outputs.output_folder(args.output, create=False)
    folders = load_folders(args.folders)
    out = outputs.output_folder(args.output or folders[0].path / "charts")
    charts = render_all(
        folders, out, progress=_progress(args, "plot")
    )  # a workload without charts: a note, not an error
    for chart in charts:
        print(chart.png)
        print(chart.svg)
    return 0


def _report(args) -> int:
    from .report import write_report
    from .run_set import RunSet

    if args.output:
        outputs.output_folder(args.output, create=False)
    folders = load_folders(args.folders)
    progress = _progress(args, "report")
    comparison = None
    if len(folders) == 2 and not args.pool:
        from .compare import compare

        progress(f"comparing {folders[1].path} against {folders[0].path}")
        comparison = compare([folders[0]], [folders[1]])
        folders = [folders[1]]  # the report is NEW's, with the comparison against BASE first
    out = outputs.output_folder(args.output or folders[0].path / "report")
    html, markdown = write_report(RunSet.of(folders), out, comparison=comparison, progress=progress)
    print(html)
    print(markdown)
    return 0


def _export(args) -> int:
    from .export import export

    if args.push:
        from .pushgateway import push

        if args.format != "openmetrics" or args.output:
            raise InputError("--push sends the openmetrics export (-f openmetrics) to a Pushgateway; it takes no -o")
        for url in push(load_folders(args.folders), args.push, args.job):
            print(url)
        return 0
    if args.output:
        outputs.output_file(args.output)
    folders = load_folders(args.folders)
    text = export(folders, args.format, timestamps=not args.no_timestamps, precision=args.precision)
    if args.output:
        outputs.write_text(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _compare(args) -> int:
    from .compare import Options, compare, learn_noise_floor, to_html, to_json, to_markdown

    if args.output:
        outputs.output_folder(args.output, create=False)
    # Each side may be several folders, comma-separated (e.g. the rounds of an interleaved A/B job).
    base = load_folders([p for p in args.base.split(",") if p])
    new = load_folders([p for p in args.new.split(",") if p])
    if not 0 <= args.min_effect < 1:
        raise InputError(f"--min-effect {args.min_effect} must be a fraction in [0, 1) (e.g. 0.01)")
    options = Options(min_effect=args.min_effect, noise_floor=args.noise_floor, thresholds=args.thresholds)
    result = compare(base, new, options)
    if args.learn_noise_floor:
        groups = learn_noise_floor(result, base, new, Path(args.learn_noise_floor))
        print(
            f"compare: {groups} noise floors learned from this A/A pair into {args.learn_noise_floor}", file=sys.stderr
        )
    renderers = {
        "markdown": (to_markdown, "compare.md"),
        "html": (to_html, "compare.html"),
        "json": (to_json, "compare.json"),
    }
    if args.output:
        out = outputs.output_folder(args.output)
        for render, name in renderers.values():
            print(outputs.write_text(out / name, render(result)))
    else:
        sys.stdout.write(renderers[args.format][0](result))
    return 0


def _history_options(args):
    from .history import Options

    if args.window < 4:
        raise InputError(f"--window {args.window} is too short for change-point detection (at least 4)")
    if not 0 < args.max_pvalue < 1:
        raise InputError(f"--max-pvalue {args.max_pvalue} must be between 0 and 1")
    if not 0 <= args.min_change < 1:
        raise InputError(f"--min-change {args.min_change} must be a fraction in [0, 1) (e.g. 0.03)")
    return Options(window_len=args.window, max_pvalue=args.max_pvalue, min_magnitude=args.min_change)


def _history(args) -> int:
    from . import history

    outputs.database_file(args.db or history.default_db(), create=args.history_command == "ingest")
    if args.history_command == "ingest":
        for folder in args.folders:
            load_folder(folder)  # a missing folder is named before the store is opened or created
    elif args.history_command == "plot":
        outputs.output_folder(args.output, create=False)
    store = history.Store(args.db, create=args.history_command == "ingest")
    try:
        if args.history_command == "ingest":
            folders = [load_folder(p) for p in args.folders]
            result = history.ingest(store, folders)
            print(
                f"history: {len(result.runs_added)} runs ({result.rows_added} rows) added to {store.describe()}"
                + (
                    f"; {len(result.runs_skipped)} already there: {', '.join(result.runs_skipped[:5])}"
                    f"{' …' if len(result.runs_skipped) > 5 else ''}"
                    if result.runs_skipped
                    else ""
                )
            )
            return 0
        options = _history_options(args)
        found, stats = history.changes(store, options, args.workload, args.metric)
        if args.history_command == "changes":
            text = (
                history.changes_json(found, stats, options)
                if args.format == "json"
                else history.changes_markdown(
                    found, stats, options, history.series_frame(store, args.workload, args.metric)
                )
            )
            sys.stdout.write(text)
            return 0
        charts = history.plot(store, Path(args.output), found, args.workload, args.metric, args.limit)
        if not charts:
            print(
                f"history: no change points in {stats['series']} series over {stats['runs']} runs; nothing to draw "
                "(give --workload or --metric to draw series without change points)",
                file=sys.stderr,
            )
        for chart in charts:
            print(chart.png)
            print(chart.svg)
        return 0
    finally:
        store.close()


def _runs(args) -> int:
    from .runs import runs_frame

    if args.output:
        outputs.output_file(args.output)
    frame = runs_frame(load_folders(args.folders))
    if args.output:
        print(outputs.write_text(args.output, frame.to_csv(index=False)))
    else:
        frame.to_csv(sys.stdout, index=False)
    return 0


def _merge(args) -> int:
    from .merge import merge_folders

    outputs.output_folder(args.output, create=False)  # merge makes it once the inputs are read
    written = merge_folders(
        [Path(f) for f in args.folders],
        Path(args.output),
        force=args.force,
        allow_missing_shards=args.allow_missing_shards,
    )
    for path in written:
        print(path)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pb-analysis",
        description="Charts, reports, dashboard exports and merging for PatternBench results folders (schema version 1).",
    )
    sub = p.add_subparsers(dest="command", required=True)

    plot = sub.add_parser("plot", help="write PNG and SVG charts for one or more results folders")
    plot.add_argument("folders", nargs="+", metavar="FOLDER")
    plot.add_argument("-o", "--output", help="folder for the charts (default: FIRST_FOLDER/charts)")
    plot.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    plot.set_defaults(run=_plot)

    report = sub.add_parser("report", help="self-contained HTML report + markdown summary")
    report.add_argument("folders", nargs="+", metavar="FOLDER")
    report.add_argument(
        "-o",
        "--output",
        help="folder for report.html, summary.md and charts (default: FIRST_FOLDER/report; with BASE NEW: NEW/report)",
    )
    report.add_argument(
        "--pool",
        action="store_true",
        help="with two folders: pool them into one report instead of comparing NEW against BASE "
        "(three or more folders are always pooled, e.g. a sweep)",
    )
    report.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    report.set_defaults(run=_report)

    export = sub.add_parser("export", help="InfluxDB line protocol or OpenMetrics text on stdout")
    export.add_argument("folders", nargs="+", metavar="FOLDER")
    export.add_argument("-f", "--format", required=True, choices=["influx", "openmetrics"])
    export.add_argument("-o", "--output", help="write to this file instead of stdout")
    export.add_argument(
        "--precision",
        choices=["s", "ms", "us", "ns"],
        default="ns",
        help="influx timestamp precision (default ns; pass the same to the write API)",
    )
    export.add_argument(
        "--no-timestamps",
        action="store_true",
        help="omit timestamps (OpenMetrics for a Pushgateway or textfile collector, which refuse them)",
    )
    export.add_argument(
        "--push",
        metavar="URL",
        help="PUT each run to a Pushgateway at URL, one group per run (URL/metrics/job/JOB/run_id/RUN_ID), "
        "so pushing another run keeps this one (implies --no-timestamps)",
    )
    export.add_argument(
        "--job", default="patternbench", help="the Pushgateway job label with --push (default patternbench)"
    )
    export.set_defaults(run=_export)

    comp = sub.add_parser(
        "compare", help="per cell and metric: change in %% with its interval and a verdict (rule pb-verdict-3)"
    )
    comp.add_argument("base", metavar="BASE", help="results folder(s), comma-separated")
    comp.add_argument("new", metavar="NEW", help="results folder(s), comma-separated")
    comp.add_argument(
        "-o",
        "--output",
        help="folder to write compare.md, compare.html and compare.json into (default: print --format to stdout)",
    )
    comp.add_argument("--format", choices=["markdown", "html", "json"], default="markdown")
    comp.add_argument(
        "--min-effect",
        "--noise-threshold",
        dest="min_effect",
        type=float,
        default=0.01,
        help="changes smaller than this fraction are not reported as better/worse (default 0.01; a gated "
        "metric's tolerance from the thresholds file applies to its cells)",
    )
    comp.add_argument(
        "--noise-floor",
        metavar="FILE",
        help="A/A noise floors (default: results/noise-floor.json of the checkout, when present)",
    )
    comp.add_argument(
        "--thresholds",
        metavar="FILE",
        help="the gate's thresholds file, for its hardware metrics' tolerances (default: results/thresholds.json)",
    )
    comp.add_argument(
        "--learn-noise-floor",
        metavar="FILE",
        help="BASE and NEW are two runs of the same binary: add their changes to the noise floors in FILE",
    )
    comp.set_defaults(run=_compare)

    runs = sub.add_parser("runs", help="one row per run: metadata and parameters (join the CSVs on run_id)")
    runs.add_argument("folders", nargs="+", metavar="FOLDER")
    runs.add_argument("-o", "--output", help="write the CSV to this file instead of stdout")
    runs.set_defaults(run=_runs)

    hist = sub.add_parser("history", help="store runs (SQLite or PostgreSQL) and find change points (Apache Otava)")
    hist_sub = hist.add_subparsers(dest="history_command", required=True)
    db_help = (
        "SQLite file or postgresql://user:password@host:port/database "
        "(default: $XDG_DATA_HOME/patternbench/history.sqlite, i.e. ~/.local/share/patternbench/… "
        "when unset; never inside the checkout)"
    )
    ingest = hist_sub.add_parser(
        "ingest", help="add every run of these results folders (runs already stored are skipped)"
    )
    ingest.add_argument("folders", nargs="+", metavar="RESULTS")
    ingest.add_argument("--db", help=db_help)
    for name, helptext in (
        ("changes", "list change points per series (workload, scenario, variant, factors, metric)"),
        ("plot", "trend charts with the change points marked"),
    ):
        command = hist_sub.add_parser(name, help=helptext)
        command.add_argument("--db", help=db_help)
        command.add_argument("--workload", help="only this workload")
        command.add_argument("--metric", help="only this metric")
        command.add_argument("--window", type=int, default=50, help="Otava's window length in runs (default 50)")
        command.add_argument("--max-pvalue", type=float, default=1e-5, help="significance (default 1e-5)")
        command.add_argument(
            "--min-change", type=float, default=0.03, help="smallest relative change reported (default 0.03 = 3 %%)"
        )
        if name == "changes":
            command.add_argument("--format", choices=["markdown", "json"], default="markdown")
        else:
            command.add_argument(
                "-o", "--output", default="history-charts", help="folder for the charts (default: history-charts)"
            )
            command.add_argument("--limit", type=int, default=12, help="at most this many series (panels) per chart")
    hist.set_defaults(run=_history)

    merge = sub.add_parser("merge", help="combine results folders from several machines into one")
    merge.add_argument("folders", nargs="+", metavar="FOLDER")
    merge.add_argument("-o", "--output", required=True, help="the merged results folder (must be new or empty)")
    merge.add_argument("--force", action="store_true", help="replace results already in the output folder")
    merge.add_argument(
        "--allow-missing-shards",
        action="store_true",
        help="merge shards of an I/N split even when some are missing (exit 0, noted in the JSON)",
    )
    merge.set_defaults(run=_merge)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except InputError as error:  # PathError included: exit 2
        print(f"pb-analysis {args.command}: error: {error}", file=sys.stderr)
        return error.exit_status
    except OSError as error:  # a path that failed after the checks (a disk filled up, a folder removed)
        where = f"{error.filename}: " if error.filename else ""
        print(f"pb-analysis {args.command}: error: {where}{error.strerror or error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
