#!/usr/bin/env python3
"""Writes one commit stream (or one launch) as a CSV, an `xctrace export` XML and a Perfetto trace.

The XML follows the layout `xctrace export --xpath '…table[@schema="os-signpost"]'` produces, as
public parsers' test fixtures show it: a <schema> of <col>s in the first <node> only, the table
split over a second <node>, each value written once with id= and then as an empty element with
ref=, <sentinel/> for an empty cell, a thread element holding its process, several processes.
The Perfetto trace is built with Perfetto's own schema (perfetto_trace_pb2 from PyPI's `perfetto`
package), so its field numbers are Perfetto's, not ours; the readers in Sources/TraceImport are
checked against these files.

    trace-fixtures.py commits OUT_DIR NAME [--commits N] [--formats csv,xml,perfetto]
    trace-fixtures.py launch OUT_DIR NAME
"""

import argparse
import os
import sys

APP, APP_PID, APP_MAIN_TID, APP_WORKER_TID = "Signal", 4242, 4242, 4301
OTHER, OTHER_PID = "SpringBoard", 61
START_NS = 2_500_000_000  # the recording starts before the app's first commit: time zero moves


def commit_stream(n):
    """(time_ns, rows or None, kind) for the app, in time order; kind: event or slice."""
    state, t, out = 12345, START_NS, []
    for i in range(n):
        state = (state * 1103515245 + 12345) % (1 << 31)
        t += 1_000 * (1 + state % 40_000)  # whole microseconds, so the CSV's ms are exact
        rows = None if i % 5 == 0 else 1 + (state >> 8) % 60
        out.append((t, rows, "slice" if i % 7 == 3 else "event"))
    return out


def other_stream(n):
    return [(START_NS + 1_000_000 * (3 * i + 1), 2) for i in range(max(1, n // 4))]


def launch_stream():
    """(name, start_ns, duration_ns, main_thread) intervals of a launch, as an app signposts them."""
    ms = 1_000_000
    return [
        ("will.database", START_NS, 12 * ms, True),
        ("will.keychain", START_NS + 13 * ms, 4 * ms, True),
        ("did.registration", START_NS + 18 * ms, 9 * ms, True),
        ("did.contacts", START_NS + 30 * ms, 22 * ms, False),
        ("ui.inbox", START_NS + 60 * ms, 16 * ms, True),
        ("polite.prefetch", START_NS + 80 * ms, 40 * ms, False),
        ("polite.cleanup", START_NS + 95 * ms, 6 * ms, True),
        ("layout", START_NS + 120 * ms, 3 * ms, True),
    ]


def write_csv(path, stream):
    first = stream[0][0]
    with open(path, "w") as f:
        f.write("time_ms,rows\n")
        for t, rows, _ in stream:
            us = (t - first) // 1000
            f.write(f"{us // 1000}.{us % 1000:03d},{rows or 1}\n")


class XML:
    """Allocates ids the way xctrace does: each distinct value once, then refs."""

    COLS = (
        ("time", "Time", "event-time"),
        ("thread", "Thread", "thread"),
        ("process", "Process", "process"),
        ("event-type", "Event Type", "event-type"),
        ("identifier", "Signpost ID", "os-signpost-identifier"),
        ("name", "Name", "signpost-name"),
        ("subsystem", "Subsystem", "subsystem"),
        ("category", "Category", "category"),
        ("backtrace", "Backtrace", "backtrace"),
        ("message", "Message", "os-log-metadata"),
    )

    def __init__(self, f):
        self.f, self.next_id, self.seen = f, 1, {}

    def value(self, tag, key, body):
        if (tag, key) in self.seen:
            return f'<{tag} ref="{self.seen[(tag, key)]}"/>'
        i = self.next_id
        self.next_id += 1
        self.seen[(tag, key)] = i
        return body(i)

    def simple(self, tag, text, fmt=None):
        return self.value(tag, text, lambda i: f'<{tag} id="{i}" fmt="{fmt or text}">{text}</{tag}>')

    def process(self, name, pid):
        return self.value(
            "process", pid, lambda i: f'<process id="{i}" fmt="{name} ({pid})">{self.simple("pid", str(pid))}</process>'
        )

    def thread(self, name, pid, tid, main):
        label = f"{'Main Thread' if main else 'Thread'} 0x{tid:x} ({name}, pid: {pid})"
        return self.value(
            "thread",
            tid,
            lambda i: (
                f'<thread id="{i}" fmt="{label}">{self.simple("tid", str(tid), f"0x{tid:x}")}{self.process(name, pid)}</thread>'
            ),
        )

    def row(self, t, proc, pid, tid, main, kind, ident, name, message):
        i = self.next_id  # every timestamp is a new value, as in a real export
        self.next_id += 1
        s = int(t / 1e9)
        cells = [
            f'<event-time id="{i}" fmt="{s // 60:02d}:{s % 60:02d}.{t // 1_000_000 % 1000:03d}.{t // 1000 % 1000:03d}">{t}</event-time>',
            self.thread(proc, pid, tid, main),
            self.process(proc, pid),
            self.simple("event-type", kind),
            self.simple("os-signpost-identifier", str(ident), f"0x{ident:x}"),
            self.simple("signpost-name", name),
            self.simple("subsystem", "org.signal.db"),
            self.simple("category", "PointsOfInterest"),
            "<sentinel/>",
            "<sentinel/>"
            if message is None
            else self.value(
                "os-log-metadata", message, lambda k: f'<os-log-metadata id="{k}" fmt="{message}"></os-log-metadata>'
            ),
        ]
        self.f.write("<row>" + "".join(cells) + "</row>\n")


def write_xml(path, rows):
    """rows: (time, process, pid, tid, main, kind, identifier, name, message) in time order."""
    xpath = "//trace-toc[1]/run[1]/data[1]/table[7]"
    with open(path, "w") as f:
        x = XML(f)
        f.write('<?xml version="1.0"?>\n<trace-query-result>\n')
        f.write(f"<node xpath='{xpath}'><schema name=\"os-signpost\">")
        f.write(
            "".join(
                f"<col><mnemonic>{m}</mnemonic><name>{n}</name><engineering-type>{e}</engineering-type></col>"
                for m, n, e in XML.COLS
            )
        )
        f.write("</schema>\n")
        half = len(rows) // 2
        for k, r in enumerate(rows):
            if k == half:  # the table continues in a second node, without a schema
                f.write(f"</node>\n<node xpath='{xpath}'>\n")
            x.row(*r)
        f.write("</node></trace-query-result>\n")


def commit_rows(stream):
    rows, others = [], other_stream(len(stream))
    for t, n, kind in stream:
        msg = None if n is None else f"rows={n}"
        if kind == "slice":
            rows.append((t, APP, APP_PID, APP_MAIN_TID, True, "Begin", 7, "commit", msg))
            rows.append((t + 300_000, APP, APP_PID, APP_MAIN_TID, True, "End", 7, "commit", None))
        else:
            rows.append((t, APP, APP_PID, APP_MAIN_TID, True, "Event", 0xEEEEB0B5B2B2EEEE, "commit", msg))
    rows += [
        (t, OTHER, OTHER_PID, OTHER_PID, True, "Event", 0xEEEEB0B5B2B2EEEE, "commit", f"rows={n}") for t, n in others
    ]
    rows += [
        (START_NS + 5_000_000 * k + 1, APP, APP_PID, APP_WORKER_TID, False, "Event", 9, "layout", None)
        for k in range(3)
    ]
    return sorted(rows, key=lambda r: r[0])


def launch_rows():
    rows = []
    for k, (name, start, dur, main) in enumerate(launch_stream()):
        tid = APP_MAIN_TID if main else APP_WORKER_TID
        rows.append((start, APP, APP_PID, tid, main, "Begin", 100 + k, name, None))
        rows.append((start + dur, APP, APP_PID, tid, main, "End", 100 + k, name, None))
    rows.append((START_NS + 1, OTHER, OTHER_PID, OTHER_PID, True, "Begin", 5, "launch", None))
    rows.append((START_NS + 2, OTHER, OTHER_PID, OTHER_PID, True, "End", 5, "launch", None))
    return sorted(rows, key=lambda r: r[0])


def perfetto_module():
    try:
        from perfetto.protos.perfetto.trace import perfetto_trace_pb2
    except ImportError:
        sys.exit("trace-fixtures.py: the Perfetto trace needs PyPI's perfetto package (pip install perfetto)")
    return perfetto_trace_pb2


def write_perfetto(path, events):
    """events: (time, process, pid, tid, kind, name, rows) with kind instant|begin|end."""
    pb = perfetto_module()
    trace = pb.Trace()
    flags = pb.TracePacket
    uuids = {}
    for proc, pid, tid in sorted({(e[1], e[2], e[3]) for e in events}):
        if pid not in uuids:
            p = trace.packet.add(trusted_packet_sequence_id=pid)
            p.track_descriptor.uuid = 1000 + pid
            p.track_descriptor.process.pid = pid
            p.track_descriptor.process.process_name = proc
            uuids[pid] = 1000 + pid
        p = trace.packet.add(trusted_packet_sequence_id=pid)
        p.track_descriptor.uuid, p.track_descriptor.parent_uuid = 100_000 + tid, 1000 + pid
        p.track_descriptor.thread.pid, p.track_descriptor.thread.tid = pid, tid
    started = set()
    types = {
        "instant": pb.TrackEvent.TYPE_INSTANT,
        "begin": pb.TrackEvent.TYPE_SLICE_BEGIN,
        "end": pb.TrackEvent.TYPE_SLICE_END,
    }
    for k, (t, _proc, pid, tid, kind, name, rows) in enumerate(events):
        p = trace.packet.add(timestamp=t, trusted_packet_sequence_id=pid)
        if pid not in started:  # the sequence's first packet clears its interned state and interns
            started.add(pid)
            p.sequence_flags = flags.SEQ_INCREMENTAL_STATE_CLEARED
            p.interned_data.event_names.add(iid=1, name="commit")
            p.interned_data.debug_annotation_names.add(iid=1, name="rows")
        else:
            p.sequence_flags = flags.SEQ_NEEDS_INCREMENTAL_STATE
        e = p.track_event
        e.type, e.track_uuid = types[kind], 100_000 + tid
        if kind != "end":
            if name == "commit" and k % 2 == 0:
                e.name_iid = 1  # interned
            else:
                e.name = name  # inline
        if rows is not None:
            a = e.debug_annotations.add()
            if k % 3 == 0:
                a.name_iid = 1
            else:
                a.name = "rows"
            a.int_value = rows
    with open(path, "wb") as f:
        f.write(trace.SerializeToString())


def perfetto_events(rows):
    out = []
    for t, proc, pid, tid, _main, kind, _ident, name, message in rows:
        n = int(message[5:]) if message else None
        out.append((t, proc, pid, tid, {"Event": "instant", "Begin": "begin", "End": "end"}[kind], name, n))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["commits", "launch"])
    ap.add_argument("out")
    ap.add_argument("name")
    ap.add_argument("--commits", type=int, default=300)
    ap.add_argument("--formats", default="csv,xml,perfetto")
    a = ap.parse_args()
    formats = a.formats.split(",")
    os.makedirs(a.out, exist_ok=True)
    base = os.path.join(a.out, a.name)
    if a.what == "commits":
        stream = commit_stream(a.commits)
        if "csv" in formats:
            write_csv(base + ".csv", stream)
        rows = commit_rows(stream)
    else:
        rows = launch_rows()
    if "xml" in formats:
        write_xml(base + ".xml", rows)
    if "perfetto" in formats:
        write_perfetto(base + ".perfetto-trace", perfetto_events(rows))


if __name__ == "__main__":
    main()
