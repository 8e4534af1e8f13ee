/// Reads a Perfetto trace's track events as `SignpostEvent`s, one packet at a time.
///
/// Field numbers from perfetto's protos (trace.proto, trace_packet.proto, track_event.proto,
/// track_descriptor.proto, interned_data.proto, debug_annotation.proto): `Trace.packet` 1;
/// `TracePacket` timestamp 8, trusted_packet_sequence_id 10, track_event 11, interned_data 12,
/// sequence_flags 13 (1 `SEQ_INCREMENTAL_STATE_CLEARED`), incremental_state_cleared 41,
/// clock_snapshot 6, timestamp_clock_id 58, trace_packet_defaults 59, track_descriptor 60;
/// `ClockSnapshot` clocks 1 (clock_id 1, timestamp 2, is_incremental 3, unit_multiplier_ns 4);
/// `TracePacketDefaults` timestamp_clock_id 58, track_event_defaults 11 (track_uuid 11); `TrackEvent`
/// debug_annotations 4, type 9 (1 slice begin, 2 slice end, 3 instant), name_iid 10,
/// track_uuid 11, name 23; `TrackDescriptor` uuid 1, name 2, process 3 (pid 1, process_name 6),
/// thread 4 (pid 1, tid 2, thread_name 5), parent_uuid 5; `InternedData` event_names 2,
/// debug_annotation_names 3 (each iid 1, name 2); `DebugAnnotation` name_iid 1, uint_value 3,
/// int_value 4, name 10. A thread track whose tid is its pid is the main thread.
struct PerfettoSignpostReader {
    struct Track {
        var pid: UInt64?
        var tid: UInt64?
        var processName: String?
        var parent: UInt64?
    }

    struct ResolvedTrack {
        var uuid: UInt64
        var process: String
        var main: Bool
        var key: String
    }

    var source: ByteSource
    var i = 0
    var packets = 0
    var tracks: [UInt64: Track] = [:]
    var processNames: [UInt64: String] = [:]
    /// The track of the last event, resolved: most events are on the track of the one before
    /// (a sequence's default track above all). Dropped when a descriptor arrives.
    var lastTrack: ResolvedTrack?
    /// The state of the sequence the last packet was on, and of the others by id.
    var current = SequenceState()
    var currentSequence: UInt64 = 0
    var sequences: [UInt64: SequenceState] = [:]
    /// Clocks that are not sequence-scoped, as the latest snapshot naming each relates it to BOOTTIME.
    var globalClocks: [SnapshotClock] = []
    static let maximumPacket = 64 << 20

    init(path: String) throws(TraceImportError) {
        source = try ByteSource(path: path)
    }

    var path: String { source.path }

    func fail(_ message: String) -> TraceImportError { TraceImportError(path: path, message: message) }

    /// Makes `n` bytes from `i` available; false when the file ends first.
    private mutating func ensure(_ n: Int) throws(TraceImportError) -> Bool {
        while source.buffer.count - i < n {
            let more = try source.refill(keeping: i)
            i = 0
            guard more else { return false }
        }
        return true
    }

    /// The next track event that has a time; nil at the end of the trace.
    mutating func next() throws(TraceImportError) -> SignpostEvent? {
        while true {
            guard try ensure(1) else { return nil }
            _ = try ensure(11)
            let head = source.buffer.withUnsafeBufferPointer { b -> (key: UInt64, length: UInt64, used: Int)? in
                var f = ProtobufFields(b, i..<b.count)
                guard let key = try? f.varint(), let length = try? f.varint() else { return nil }
                return (key, length, f.i - i)
            }
            guard let head else {
                throw fail("truncated protobuf: packet \(packets + 1) has no complete header at byte \(source.offset + UInt64(i))")
            }
            guard head.key == 0x0A else {
                throw fail(
                    "not a Perfetto trace: field \(head.key >> 3), wire type \(head.key & 7) at byte \(source.offset + UInt64(i)) (expected a TracePacket)"
                )
            }
            guard head.length <= UInt64(Self.maximumPacket) else {
                throw fail(
                    "packet \(packets + 1) claims \(head.length) bytes, more than the \(Self.maximumPacket >> 20) MiB a packet may have"
                )
            }
            let total = head.used + Int(head.length)
            guard try ensure(total) else {
                throw fail(
                    "truncated protobuf: packet \(packets + 1) needs \(head.length) bytes, the file ends after \(source.buffer.count - i - head.used)"
                )
            }
            packets += 1
            let start = i + head.used
            i += total
            let event = try source.buffer.withUnsafeBufferPointer { (b) throws(TraceImportError) -> SignpostEvent? in
                do { return try packet(b, start..<(start + Int(head.length))) } catch let m as ProtobufFields.Malformed {
                    throw fail("malformed protobuf in packet \(packets) at byte \(source.offset + UInt64(m.offset))")
                } catch { throw error as! TraceImportError }
            }
            if let event { return event }
        }
    }
}
