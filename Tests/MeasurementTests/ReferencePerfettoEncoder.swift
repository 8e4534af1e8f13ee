@testable import Timelines

/// The `--perfetto` encoder as it was before it streamed: every event turned into begin,
/// end, instant and counter packets, all sorted, then encoded. Kept here, unchanged, as the
/// reference the streaming encoder must reproduce byte for byte (`PerfettoEncodingEquivalenceTests`).
/// One change since: it draws what the encoder draws, each item's idle frames as stretches
/// (`ItemTrace.collapsingIdleFrames()`, whose own tests are `IdleFrameStretchTests`), an idle
/// stretch as a slice whose annotation is `frames`.
enum ReferencePerfettoEncoder {
    static func encoded(_ items: [ItemTrace]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, item) in items.enumerated() {
            encode(item, pid: index + 1) { out += $0 }
        }
        return out
    }

    // Field numbers of perfetto/trace/trace_packet.proto and track_event/*.proto.
    enum F {
        static let tracePacket = 1
        static let timestamp = 8, trustedSequence = 10, sequenceFlags = 13, trackEvent = 11, trackDescriptor = 60
        static let uuid = 1, name = 2, process = 3, thread = 4, parentUUID = 5, counter = 8
        static let pid = 1, processName = 6, tid = 2, threadName = 5
        static let type = 9, trackUUID = 11, eventName = 23, doubleCounterValue = 44, debugAnnotations = 4
        static let annotationName = 10, annotationDouble = 5
        static let unitName = 6
    }

    enum EventType: UInt64 {
        case sliceBegin = 1
        case sliceEnd = 2
        case instant = 3
        case counter = 4
    }

    /// One item's packets — its process and track descriptors, then its events in time order — as
    /// bytes of a `Trace`, handed to `emit` in chunks of whole packets (about 1 MiB). The item of
    /// `pid` 1 clears the sequence's incremental state. Concatenating the items' packets in pid
    /// order gives `encoded()`; `PerfettoStream` does that one item at a time.
    static func encode(_ item: ItemTrace, pid: Int, emit: ([UInt8]) throws -> Void) rethrows {
        let processUUID = UInt64(pid) << 32
        var out = ProtobufWriter()
        out.message(F.tracePacket) { p in
            p.varint(F.trustedSequence, 1)
            if pid == 1 { p.varint(F.sequenceFlags, 1) }  // SEQ_INCREMENTAL_STATE_CLEARED
            p.message(F.trackDescriptor) { d in
                d.varint(F.uuid, processUUID)
                d.message(F.process) { proc in
                    proc.varint(F.pid, UInt64(pid))
                    proc.string(F.processName, item.label)
                }
            }
        }
        let events = item.collapsingIdleFrames().events
        let lanes = Self.lanes(events)
        for (t, name) in lanes.trackNames.enumerated() {
            let uuid = processUUID + UInt64(t + 1)
            let isCounter = lanes.counterTracks.contains(name)
            out.message(F.tracePacket) { p in
                p.varint(F.trustedSequence, 1)
                p.message(F.trackDescriptor) { d in
                    d.varint(F.uuid, uuid)
                    d.varint(F.parentUUID, processUUID)
                    if isCounter {
                        d.string(F.name, name)
                        d.message(F.counter) { c in c.string(F.unitName, lanes.counterUnits[name] ?? "") }
                    } else {
                        d.message(F.thread) { t in
                            t.varint(F.pid, UInt64(pid))
                            t.varint(F.tid, uuid & 0xFFFF_FFFF + UInt64(pid) * 1000)
                            t.string(F.threadName, name)
                        }
                    }
                }
            }
        }
        out.bytes.reserveCapacity(Self.chunk + 256)
        for packet in lanes.packets {
            let event = events[Int(packet.event)]
            out.message(F.tracePacket) { p in
                p.varint(F.timestamp, UInt64(max(0, packet.time)))
                p.varint(F.trustedSequence, 1)
                p.message(F.trackEvent) { e in
                    e.varint(F.type, packet.type.rawValue)
                    e.varint(F.trackUUID, processUUID + UInt64(packet.track) + 1)
                    if packet.type == .counter {
                        e.double(F.doubleCounterValue, event.value ?? 0)
                    } else if packet.type != .sliceEnd {
                        e.string(F.eventName, event.name)
                        if let v = event.value {
                            e.message(F.debugAnnotations) { a in
                                a.string(F.annotationName, event.kind == .idle ? "frames" : "value")
                                a.double(F.annotationDouble, v)
                            }
                        }
                    }
                }
            }
            if out.bytes.count >= Self.chunk {
                try emit(out.bytes)
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        if !out.bytes.isEmpty { try emit(out.bytes) }
    }

    /// How many bytes `encode` gathers before handing them on.
    static let chunk = 1 << 20

    /// One begin, end, instant or counter packet: 24 bytes that point at their event and track,
    /// so that a large item's packets cost little beside its events.
    private struct Packet {
        var time: Int64
        var sequence: Int32  // creation order, the last tie-break
        var track: Int32  // index in `Lanes.trackNames`
        var event: Int32  // index in the item's events
        var order: UInt8  // ends before instants before begins at one time
        var type: EventType
    }

    private struct Lanes {
        var trackNames: [String] = []
        var counterTracks: Set<String> = []
        var counterUnits: [String: String] = [:]
        var packets: [Packet] = []
    }

    /// Assigns overlapping slices of one actor to extra lanes and turns events into time-ordered
    /// begin/end/instant/counter packets.
    private static func lanes(_ events: [TraceEvent]) -> Lanes {
        var result = Lanes()
        var trackIndex: [String: Int32] = [:]
        func track(_ name: String) -> Int32 {
            if let known = trackIndex[name] { return known }
            let index = Int32(result.trackNames.count)
            trackIndex[name] = index
            result.trackNames.append(name)
            return index
        }
        var laneEnds: [String: [Int64]] = [:]
        let ordered = events.indices.sorted {
            (events[$0].startNanoseconds, $0) < (events[$1].startNanoseconds, $1)
        }
        result.packets.reserveCapacity(events.count + events.count / 2)
        func add(_ time: Int64, _ order: UInt8, _ type: EventType, _ track: Int32, _ event: Int) {
            result.packets.append(
                Packet(time: time, sequence: Int32(result.packets.count), track: track, event: Int32(event), order: order, type: type)
            )
        }
        for i in ordered {
            let e = events[i]
            switch e.kind {
            case .slice, .idle:
                var ends = laneEnds[e.track, default: []]
                let lane = ends.firstIndex { $0 <= e.startNanoseconds } ?? ends.count
                let end = e.startNanoseconds + max(1, e.durationNanoseconds)  // a begin always precedes its end
                if lane == ends.count { ends.append(end) } else { ends[lane] = end }
                laneEnds[e.track] = ends
                let name = track(lane == 0 ? e.track : "\(e.track) #\(lane + 1)")
                add(e.startNanoseconds, 2, .sliceBegin, name, i)
                add(end, 0, .sliceEnd, name, i)
            case .instant:
                add(e.startNanoseconds, 1, .instant, track(e.track), i)
            case .counter:
                let t = track(e.track)
                result.counterTracks.insert(e.track)
                result.counterUnits[e.track] = e.name
                add(e.startNanoseconds, 1, .counter, t, i)
            }
        }
        result.packets.sort { a, b in (a.time, a.order, a.sequence) < (b.time, b.order, b.sequence) }
        return result
    }
}
