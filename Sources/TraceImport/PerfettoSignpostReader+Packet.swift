extension PerfettoSignpostReader {
    /// One `TracePacket`: its descriptors and interned names are remembered; a track event
    /// becomes a signpost.
    mutating func packet(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws -> SignpostEvent? {
        var f = ProtobufFields(b, range)
        var time: UInt64?
        var sequence: UInt64 = 0
        var cleared = false
        var event: Range<Int>?
        var internedData: Range<Int>?
        while let (field, value) = try f.next() {
            switch (field, value) {
            case (8, .varint(let v)): time = v
            case (10, .varint(let v)): sequence = v
            case (13, .varint(let v)): if v & 1 != 0 { cleared = true }
            case (41, .varint(let v)): if v != 0 { cleared = true }
            case (11, .bytes(let r)): event = r
            case (12, .bytes(let r)): internedData = r
            case (60, .bytes(let r)): try trackDescriptor(b, r)
            default: break
            }
        }
        if cleared { interned[sequence] = Interned() }
        if let internedData { try intern(b, internedData, sequence: sequence) }
        guard let event else { return nil }
        guard let time else { throw fail("packet \(packets): a track event without a timestamp") }
        guard time <= UInt64(Int64.max) else { throw fail("packet \(packets): timestamp \(time) is out of range") }
        return try trackEvent(b, event, time: Int64(time), sequence: sequence)
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
    }

    private mutating func intern(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, sequence: UInt64) throws {
        var f = ProtobufFields(b, range)
        var state = interned[sequence] ?? Interned()
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
            if field == 2 { state.eventNames[iid] = name } else { state.annotationNames[iid] = name }
        }
        interned[sequence] = state
    }

    private func trackEvent(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, time: Int64, sequence: UInt64) throws -> SignpostEvent? {
        var f = ProtobufFields(b, range)
        var type: UInt64 = 0
        var name = ""
        var trackUUID: UInt64 = 0
        var rows: Int64?
        while let (field, value) = try f.next() {
            switch (field, value) {
            case (9, .varint(let v)): type = v
            case (11, .varint(let v)): trackUUID = v
            case (23, .bytes(let r)): name = f.string(r)
            case (10, .varint(let iid)):
                guard let n = interned[sequence]?.eventNames[iid] else {
                    throw fail("packet \(packets): event name iid \(iid) was never interned on sequence \(sequence)")
                }
                name = n
            case (4, .bytes(let r)): if let n = try rowsAnnotation(b, r, sequence: sequence) { rows = n }
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
        var track = tracks[trackUUID] ?? Track()
        if track.pid == nil, let parent = track.parent, let p = tracks[parent] { track.pid = p.pid }
        let process = track.pid.map { processNames[$0] ?? "pid \($0)" } ?? ""
        let main = track.tid != nil && track.tid == track.pid
        return SignpostEvent(phase: phase, name: name, process: process, mainThread: main, time: time, rows: rows, key: String(trackUUID))
    }

    /// The value of a debug annotation named `rows`; nil for any other annotation.
    private func rowsAnnotation(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, sequence: UInt64) throws -> Int64? {
        var f = ProtobufFields(b, range)
        var name = ""
        var value: Int64?
        while let (field, v) = try f.next() {
            switch (field, v) {
            case (10, .bytes(let r)): name = f.string(r)
            case (1, .varint(let iid)): name = interned[sequence]?.annotationNames[iid] ?? ""
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
