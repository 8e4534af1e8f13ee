/// A run's items as a Perfetto trace (`Trace` of `TracePacket`s with `TrackEvent`s) that
/// ui.perfetto.dev opens: one process track per item, a thread track per actor, counter tracks
/// for state.
///
/// Slices that overlap on one actor's track (say, two loads in flight) go to extra lanes named
/// `actor #2`, … so that every thread track holds properly nested slices, which is what the
/// trace processor requires. Timestamps are the events' own (virtual time in sim).
public struct PerfettoTrace: Sendable {
    public private(set) var items: [ItemTrace] = []

    public init() {}

    public mutating func add(_ item: ItemTrace) { items.append(item) }

    /// The events of all items.
    public var eventCount: Int { items.reduce(0) { $0 + $1.events.count } }

    /// Keeps only events that start inside `window` (nanoseconds since each item's start).
    public mutating func restrict(to window: Range<Int64>) {
        for i in items.indices {
            items[i].events.removeAll { !window.contains($0.startNanoseconds) }
        }
    }

    /// Cuts items to their earliest events so that the whole trace holds at most `limit`: small
    /// items keep everything, and what they leave unused is shared among the large ones (water
    /// filling). Returns how many events were dropped.
    public mutating func cap(at limit: Int) -> Int {
        let total = eventCount
        guard total > limit, !items.isEmpty else { return 0 }
        var remaining = limit
        let bySize = items.indices.sorted { items[$0].events.count < items[$1].events.count }
        for (done, i) in bySize.enumerated() {
            let share = remaining / (bySize.count - done)
            if items[i].events.count > share {
                items[i].events.sort { $0.startNanoseconds < $1.startNanoseconds }
                items[i].events.removeLast(items[i].events.count - share)
            }
            remaining -= items[i].events.count
        }
        return total - eventCount
    }

    // Field numbers of perfetto/trace/trace_packet.proto and track_event/*.proto.
    private enum F {
        static let tracePacket = 1
        static let timestamp = 8, trustedSequence = 10, sequenceFlags = 13, trackEvent = 11, trackDescriptor = 60
        static let uuid = 1, name = 2, process = 3, thread = 4, parentUUID = 5, counter = 8
        static let pid = 1, processName = 6, tid = 2, threadName = 5
        static let type = 9, trackUUID = 11, eventName = 23, doubleCounterValue = 44, debugAnnotations = 4
        static let annotationName = 10, annotationDouble = 5
        static let unitName = 6
    }

    private enum EventType: UInt64 {
        case sliceBegin = 1
        case sliceEnd = 2
        case instant = 3
        case counter = 4
    }

    /// The trace as protobuf bytes.
    public func encoded() -> [UInt8] {
        var out = ProtobufWriter()
        var first = true
        for (index, item) in items.enumerated() {
            let pid = index + 1
            let processUUID = UInt64(pid) << 32
            out.message(F.tracePacket) { p in
                p.varint(F.trustedSequence, 1)
                if first { p.varint(F.sequenceFlags, 1) }  // SEQ_INCREMENTAL_STATE_CLEARED
                p.message(F.trackDescriptor) { d in
                    d.varint(F.uuid, processUUID)
                    d.message(F.process) { proc in
                        proc.varint(F.pid, UInt64(pid))
                        proc.string(F.processName, item.label)
                    }
                }
            }
            first = false
            let lanes = Self.lanes(item.events)
            var tracks: [String: UInt64] = [:]
            var trackOrder: [String] = []
            for name in lanes.trackNames {
                let uuid = processUUID + UInt64(tracks.count + 1)
                tracks[name] = uuid
                trackOrder.append(name)
            }
            for name in trackOrder {
                let uuid = tracks[name]!
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
            for packet in lanes.packets {
                out.message(F.tracePacket) { p in
                    p.varint(F.timestamp, UInt64(max(0, packet.time)))
                    p.varint(F.trustedSequence, 1)
                    p.message(F.trackEvent) { e in
                        e.varint(F.type, packet.type.rawValue)
                        e.varint(F.trackUUID, tracks[packet.track]!)
                        if packet.type == .counter {
                            e.double(F.doubleCounterValue, packet.value ?? 0)
                        } else if packet.type != .sliceEnd {
                            e.string(F.eventName, packet.name)
                            if let v = packet.value {
                                e.message(F.debugAnnotations) { a in
                                    a.string(F.annotationName, "value")
                                    a.double(F.annotationDouble, v)
                                }
                            }
                        }
                    }
                }
            }
        }
        return out.bytes
    }

    private struct Packet {
        var time: Int64
        var order: Int  // ends before instants before begins at one time
        var type: EventType
        var track: String
        var name: String
        var value: Double?
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
        var seen: Set<String> = []
        func track(_ name: String) {
            if seen.insert(name).inserted { result.trackNames.append(name) }
        }
        var laneEnds: [String: [Int64]] = [:]
        let ordered = events.enumerated().sorted {
            ($0.element.startNanoseconds, $0.offset) < ($1.element.startNanoseconds, $1.offset)
        }
        for (_, e) in ordered {
            switch e.kind {
            case .slice:
                var ends = laneEnds[e.track, default: []]
                let lane = ends.firstIndex { $0 <= e.startNanoseconds } ?? ends.count
                let end = e.startNanoseconds + max(1, e.durationNanoseconds)  // a begin always precedes its end
                if lane == ends.count { ends.append(end) } else { ends[lane] = end }
                laneEnds[e.track] = ends
                let name = lane == 0 ? e.track : "\(e.track) #\(lane + 1)"
                track(name)
                result.packets.append(
                    Packet(time: e.startNanoseconds, order: 2, type: .sliceBegin, track: name, name: e.name, value: e.value)
                )
                result.packets.append(Packet(time: end, order: 0, type: .sliceEnd, track: name, name: e.name, value: nil))
            case .instant:
                track(e.track)
                result.packets.append(
                    Packet(time: e.startNanoseconds, order: 1, type: .instant, track: e.track, name: e.name, value: e.value)
                )
            case .counter:
                track(e.track)
                result.counterTracks.insert(e.track)
                result.counterUnits[e.track] = e.name
                result.packets.append(
                    Packet(time: e.startNanoseconds, order: 1, type: .counter, track: e.track, name: e.name, value: e.value)
                )
            }
        }
        result.packets = result.packets.enumerated().sorted { a, b in
            (a.element.time, a.element.order, a.offset) < (b.element.time, b.element.order, b.offset)
        }.map(\.element)
        return result
    }
}
