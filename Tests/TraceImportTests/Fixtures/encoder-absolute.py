"""encoder-absolute.py SRC DST (run from the repository's root): writes SRC's packets resolved
as the trace processor reads them (absolute BOOTTIME timestamps, explicit track uuids, inline
names), without defaults, clock snapshots or interned data, using the resolve() of
analysis/tests/test_perfetto_traces.py. Packets left with nothing but their sequence id (the
ones that held only state) are dropped."""

import sys
from pathlib import Path

sys.path.insert(0, "analysis/tests")
from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
from test_perfetto_traces import Sequence, resolve

src, dst = sys.argv[1], sys.argv[2]
trace = pb.Trace()
trace.ParseFromString(Path(src).read_bytes())
out = pb.Trace()
seqs: dict[int, Sequence] = {}
for p in trace.packet:
    resolve(p, seqs.setdefault(p.trusted_packet_sequence_id, Sequence()))
    p.ClearField("trace_packet_defaults")
    p.ClearField("clock_snapshot")
    p.ClearField("interned_data")
    p.ClearField("sequence_flags")
    if p.HasField("timestamp_clock_id"):
        p.ClearField("timestamp_clock_id")
    if p.ListFields() != [
        (pb.TracePacket.DESCRIPTOR.fields_by_name["trusted_packet_sequence_id"], 1)
    ]:
        out.packet.append(p)
Path(dst).write_bytes(out.SerializeToString())
