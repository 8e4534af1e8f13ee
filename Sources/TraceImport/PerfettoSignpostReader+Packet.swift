extension PerfettoSignpostReader {
    /// One `TracePacket`: its descriptors, interned names, defaults and clock snapshot are
    /// remembered; a track event becomes a signpost, its time in BOOTTIME and its track the
    /// sequence's default one when it names none.
    ///
    /// The order is the trace processor's: a reset first, then the packet's defaults and
    /// interned data, then its clock snapshot (a packet with one is read for those only, its
    /// timestamp and event ignored), then its timestamp, which any packet may carry and which
    /// moves an incremental clock on.
    mutating func packet(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws -> SignpostEvent? {
        var f = ProtobufFields(b, range)
        var stamp: UInt64?
        var clock: UInt64?
        var sequence: UInt64 = 0
        var cleared = false
        var event: Range<Int>?
        var internedData: Range<Int>?
        var defaults: Range<Int>?
        var snapshot: Range<Int>?
        while let (field, value) = try f.next() {
            switch (field, value) {
            case (8, .varint(let v)): stamp = v
            case (10, .varint(let v)): sequence = v
            case (13, .varint(let v)): if v & 1 != 0 { cleared = true }
            case (41, .varint(let v)): if v != 0 { cleared = true }
            case (11, .bytes(let r)): event = r
            case (12, .bytes(let r)): internedData = r
            case (58, .varint(let v)): clock = v
            case (59, .bytes(let r)): defaults = r
            case (6, .bytes(let r)): snapshot = r
            case (60, .bytes(let r)): try trackDescriptor(b, r)
            default: break
            }
        }
        enter(sequence)
        if cleared { current = SequenceState(hadDefaultTrack: current.hadDefaultTrack) }
        if let defaults { try packetDefaults(b, defaults) }
        if let internedData { try intern(b, internedData) }
        if let snapshot {
            try clockSnapshot(b, snapshot)
            return nil
        }
        var time: Int64?
        if let stamp { time = try traceTime(stamp, clock: clock ?? current.defaultClock ?? Self.bootTime) }
        guard let event else { return nil }
        guard let time else { throw fail("packet \(packets): a track event without a timestamp") }
        return try trackEvent(b, event, time: time)
    }

    private mutating func trackDescriptor(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws {
        var f = ProtobufFields(b, range)
        var uuid: UInt64?
        var track = Track()
        while let (field, value) = try f.next() {
            switch (field, value) {
            case (1, .varint(let v)): uuid = v
            case (5, .varint(let v)): track.parent = v
            case (3, .bytes(let r)):
                var p = ProtobufFields(b, r)
                while let (pf, pv) = try p.next() {
                    if case (1, .varint(let v)) = (pf, pv) { track.pid = v }
                    if case (6, .bytes(let s)) = (pf, pv) { track.processName = p.string(s) }
                }
            case (4, .bytes(let r)):
                var t = ProtobufFields(b, r)
                while let (tf, tv) = try t.next() {
                    if case (1, .varint(let v)) = (tf, tv) { track.pid = v }
                    if case (2, .varint(let v)) = (tf, tv) { track.tid = v }
                }
            default: break
            }
        }
        guard let uuid else { return }
        if let pid = track.pid, let name = track.processName { processNames[pid] = name }
        tracks[uuid] = track
        lastTrack = nil
    }

    private mutating func intern(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws {
        var f = ProtobufFields(b, range)
        while let (field, value) = try f.next() {
            guard case .bytes(let r) = value, field == 2 || field == 3 else { continue }
            var e = ProtobufFields(b, r)
            var iid: UInt64?
            var name = ""
            while let (ef, ev) = try e.next() {
                if case (1, .varint(let v)) = (ef, ev) { iid = v }
                if case (2, .bytes(let s)) = (ef, ev) { name = e.string(s) }
            }
            guard let iid else { continue }
            if field == 2 { current.eventNames[iid] = name } else { current.annotationNames[iid] = name }
        }
    }

    private mutating func trackEvent(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, time: Int64) throws -> SignpostEvent? {
        var f = ProtobufFields(b, range)
        var type: UInt64 = 0
        var name = ""
        var trackUUID: UInt64?
        var rows: Int64?
        while let (field, value) = try f.next() {
            switch (field, value) {
            case (9, .varint(let v)): type = v
            case (11, .varint(let v)): trackUUID = v
            case (23, .bytes(let r)): name = f.string(r)
            case (10, .varint(let iid)):
                guard let n = current.eventNames[iid] else {
                    throw fail(
                        "packet \(packets): event name iid \(iid) is not interned on sequence \(currentSequence) since its last reset"
                    )
                }
                name = n
            case (4, .bytes(let r)): if let n = try rowsAnnotation(b, r) { rows = n }
            default: break
            }
        }
        let phase: SignpostEvent.Phase
        switch type {
        case 1: phase = .begin
        case 2: phase = .end
        case 3: phase = .instant
        default: return nil  // counters and unspecified types carry no signpost
        }
        guard let trackUUID = trackUUID ?? current.defaultTrack ?? (current.hadDefaultTrack ? nil : 0) else {
            throw fail(
                "packet \(packets): a track event without track_uuid, and sequence \(currentSequence) has no default track since its last reset"
            )
        }
        if lastTrack?.uuid != trackUUID { lastTrack = resolvedTrack(trackUUID) }
        let t = lastTrack.unsafelyUnwrapped
        return SignpostEvent(phase: phase, name: name, process: t.process, mainThread: t.main, time: time, rows: rows, key: t.key)
    }

    /// A track's process name, whether it is a main thread, and its uuid as a key.
    private func resolvedTrack(_ uuid: UInt64) -> ResolvedTrack {
        var track = tracks[uuid] ?? Track()
        if track.pid == nil, let parent = track.parent, let p = tracks[parent] { track.pid = p.pid }
        let process = track.pid.map { processNames[$0] ?? "pid \($0)" } ?? ""
        return ResolvedTrack(uuid: uuid, process: process, main: track.tid != nil && track.tid == track.pid, key: String(uuid))
    }

    /// The value of a debug annotation named `rows`; nil for any other annotation.
    private func rowsAnnotation(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws -> Int64? {
        var f = ProtobufFields(b, range)
        var name = ""
        var value: Int64?
        while let (field, v) = try f.next() {
            switch (field, v) {
            case (10, .bytes(let r)): name = f.string(r)
            case (1, .varint(let iid)):
                guard let n = current.annotationNames[iid] else {
                    throw fail(
                        "packet \(packets): debug annotation name iid \(iid) is not interned on sequence \(currentSequence) since its last reset"
                    )
                }
                name = n
            case (3, .varint(let n)): value = Int64(clamping: n)
            case (4, .varint(let n)): value = Int64(bitPattern: n)
            default: break
            }
        }
        guard name == "rows" else { return nil }
        guard let value, value >= 1, value <= Int64(Int32.max) else {
            throw fail("packet \(packets): the rows annotation must be a whole number ≥ 1")
        }
        return value
    }
}
