/// A `--perfetto` trace read back into its events — what a trace processor shows — so that two
/// encodings (string names or interned ones, any track uuids, absolute or incremental timestamps)
/// compare by content: each event's process, track, type, time, name and values, in packet order.
/// Incremental state is read as trace_packet.proto and clock_snapshot.proto say: cleared by
/// `SEQ_INCREMENTAL_STATE_CLEARED` (interned names, packet defaults), a packet's clock its own
/// `timestamp_clock_id`, else the defaults', else BOOTTIME; an incremental clock's timestamp a delta
/// from the previous one on it, the first after a clock snapshot from the snapshot's; an event
/// without `track_uuid` on the defaults' track; a packet that uses any of it says
/// `SEQ_NEEDS_INCREMENTAL_STATE`. Knows only the fields the
/// encoders write (a whole number's value or counter sample as an int64 or a double read alike, as
/// the trace processor shows them); Perfetto's own schema checks the real files (analysis/tests).
struct DecodedPerfettoTrace: Equatable {
    struct Event: Equatable, CustomStringConvertible {
        var process: String
        var track: String
        var type: UInt64
        var time: UInt64
        var name: String?
        /// The debug annotation's name and value (slices and instants).
        var annotation: String?
        var value: Double?
        var counter: Double?

        var description: String {
            "\(process)/\(track) type \(type) at \(time) \(name ?? "-") \(annotation ?? "-")=\(value.map { "\($0)" } ?? "-") counter \(counter.map { "\($0)" } ?? "-")"
        }
    }

    /// Process and track names with their counter units, in the order declared.
    var tracks: [String] = []
    var events: [Event] = []

    enum Failure: Error { case malformed(String) }

    /// One field of a message: its number and its varint, 64-bit or length-delimited value.
    private struct Field {
        var number: Int
        var varint: UInt64 = 0
        var bytes: ArraySlice<UInt8> = []
    }

    private static func fields(_ data: ArraySlice<UInt8>) throws -> [Field] {
        var out: [Field] = []
        var i = data.startIndex
        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard i < data.endIndex, shift < 64 else { throw Failure.malformed("varint at \(i)") }
                let b = data[i]
                i += 1
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
        }
        while i < data.endIndex {
            let key = try varint()
            var field = Field(number: Int(key >> 3))
            switch key & 7 {
            case 0: field.varint = try varint()
            case 1:
                guard i + 8 <= data.endIndex else { throw Failure.malformed("fixed64 at \(i)") }
                field.bytes = data[i..<i + 8]
                i += 8
            case 2:
                let n = Int(try varint())
                guard i + n <= data.endIndex else { throw Failure.malformed("length \(n) at \(i)") }
                field.bytes = data[i..<i + n]
                i += n
            default: throw Failure.malformed("wire type \(key & 7) at \(i)")
            }
            out.append(field)
        }
        return out
    }

    private static func double(_ bytes: ArraySlice<UInt8>) -> Double {
        var bits: UInt64 = 0
        for (k, b) in bytes.enumerated() { bits |= UInt64(b) << (8 * UInt64(k)) }
        return Double(bitPattern: bits)
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    init(_ bytes: [UInt8]) throws {
        var trackNames: [UInt64: (process: String, track: String)] = [:]
        var eventNames: [UInt64: String] = [:]
        var annotationNames: [UInt64: String] = [:]
        // Packet defaults: timestamp_clock_id, track_event_defaults.track_uuid.
        var defaultClock: UInt64?
        var defaultTrack: UInt64?
        // Incremental clocks: the last reading and its offset from BOOTTIME (the snapshot's).
        var incrementalClocks: [UInt64: (last: UInt64, offset: UInt64)] = [:]
        for packetField in try Self.fields(bytes[...]) where packetField.number == 1 {
            let packet = try Self.fields(packetField.bytes)
            var flags: UInt64 = 0
            for f in packet where f.number == 13 { flags = f.varint }
            if flags & 1 != 0 {  // SEQ_INCREMENTAL_STATE_CLEARED
                eventNames = [:]
                annotationNames = [:]
                defaultClock = nil
                defaultTrack = nil
                incrementalClocks = [:]
            }
            var stamp: UInt64?
            var clockID: UInt64?
            var trackEvent: ArraySlice<UInt8>?
            for f in packet {
                switch f.number {
                case 8: stamp = f.varint
                case 58: clockID = f.varint
                case 59:  // trace_packet_defaults
                    for d in try Self.fields(f.bytes) {
                        if d.number == 58 { defaultClock = d.varint }
                        if d.number == 11 {
                            for e in try Self.fields(d.bytes) where e.number == 11 { defaultTrack = e.varint }
                        }
                    }
                case 6:  // clock_snapshot: BOOTTIME's reading and each incremental clock's
                    var clocks: [(id: UInt64, time: UInt64, incremental: Bool)] = []
                    for c in try Self.fields(f.bytes) where c.number == 1 {
                        let clock = try Self.fields(c.bytes)
                        clocks.append(
                            (
                                clock.first { $0.number == 1 }?.varint ?? 0, clock.first { $0.number == 2 }?.varint ?? 0,
                                clock.first { $0.number == 3 }?.varint == 1
                            )
                        )
                    }
                    guard let boot = clocks.first(where: { $0.id == 6 }) else {
                        throw Failure.malformed("a clock snapshot without BOOTTIME")
                    }
                    for c in clocks where c.incremental {
                        guard (64..<128).contains(c.id) else { throw Failure.malformed("incremental clock \(c.id) is not sequence-scoped") }
                        incrementalClocks[c.id] = (c.time, boot.time &- c.time)
                    }
                case 12:  // interned_data
                    for d in try Self.fields(f.bytes) where d.number == 2 || d.number == 3 {
                        let entry = try Self.fields(d.bytes)
                        let iid = entry.first { $0.number == 1 }?.varint ?? 0
                        let name = Self.string(entry.first { $0.number == 2 }?.bytes ?? [])
                        if d.number == 2 { eventNames[iid] = name } else { annotationNames[iid] = name }
                    }
                case 60:  // track_descriptor
                    let d = try Self.fields(f.bytes)
                    let uuid = d.first { $0.number == 1 }?.varint ?? 0
                    let parent = d.first { $0.number == 5 }?.varint
                    var name = Self.string(d.first { $0.number == 2 }?.bytes ?? [])
                    if let process = d.first(where: { $0.number == 3 }) {
                        name = Self.string(try Self.fields(process.bytes).first { $0.number == 6 }?.bytes ?? [])
                    }
                    if let thread = d.first(where: { $0.number == 4 }) {
                        name = Self.string(try Self.fields(thread.bytes).first { $0.number == 5 }?.bytes ?? [])
                    }
                    if let counter = d.first(where: { $0.number == 8 }) {
                        name += " (" + Self.string(try Self.fields(counter.bytes).first { $0.number == 6 }?.bytes ?? []) + ")"
                    }
                    let process = parent.flatMap { trackNames[$0]?.track } ?? name
                    trackNames[uuid] = (process, name)
                    tracks.append(parent == nil ? name : "\(process)/\(name)")
                case 11: trackEvent = f.bytes
                default: break
                }
            }
            guard let trackEvent else { continue }
            var time = stamp ?? 0
            let clock = clockID ?? defaultClock ?? 6
            if clockID == nil, defaultClock != nil, flags & 2 == 0 {
                throw Failure.malformed("a timestamp on the defaults' clock without SEQ_NEEDS_INCREMENTAL_STATE")
            }
            if let stamp, clock != 6 {
                guard let state = incrementalClocks[clock] else { throw Failure.malformed("clock \(clock) has no snapshot") }
                let reading = state.last &+ stamp
                incrementalClocks[clock] = (reading, state.offset)
                time = reading &+ state.offset
            }
            let fields = try Self.fields(trackEvent)
            var track = defaultTrack
            if fields.contains(where: { $0.number == 11 }) {
                track = nil
            } else if flags & 2 == 0 {
                throw Failure.malformed("an event on the default track without SEQ_NEEDS_INCREMENTAL_STATE")
            }
            var event = Event(process: "?", track: "?", type: 0, time: time)
            if let track {
                guard let names = trackNames[track] else { throw Failure.malformed("undeclared default track \(track)") }
                (event.process, event.track) = names
            }
            for f in fields {
                switch f.number {
                case 9: event.type = f.varint
                case 11:
                    guard let names = trackNames[f.varint] else { throw Failure.malformed("undeclared track \(f.varint)") }
                    (event.process, event.track) = names
                case 23: event.name = Self.string(f.bytes)
                case 10:
                    guard let name = eventNames[f.varint] else { throw Failure.malformed("unknown name_iid \(f.varint)") }
                    event.name = name
                case 44: event.counter = Self.double(f.bytes)
                case 30: event.counter = Double(Int64(bitPattern: f.varint))  // counter_value (int64)
                case 4:
                    for a in try Self.fields(f.bytes) {
                        switch a.number {
                        case 10: event.annotation = Self.string(a.bytes)
                        case 1:
                            guard let name = annotationNames[a.varint] else {
                                throw Failure.malformed("unknown annotation iid \(a.varint)")
                            }
                            event.annotation = name
                        case 5: event.value = Self.double(a.bytes)
                        case 4: event.value = Double(Int64(bitPattern: a.varint))  // int_value
                        default: break
                        }
                    }
                default: break
                }
            }
            events.append(event)
        }
    }
}
