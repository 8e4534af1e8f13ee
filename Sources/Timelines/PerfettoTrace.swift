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
    public var eventCount: Int { items.reduce(0) { $0 + $1.eventCount } }

    /// Keeps only events that start inside `window` (nanoseconds since each item's start).
    public mutating func restrict(to window: Range<Int64>) {
        for i in items.indices {
            items[i].expandRuns()
            items[i].events.removeAll { !window.contains($0.startNanoseconds) }
        }
    }

    /// Cuts items to their earliest events so that the whole trace holds at most `limit`: small
    /// items keep everything, and what they leave unused is shared among the large ones (water
    /// filling). Returns how many events were dropped.
    public mutating func cap(at limit: Int) -> Int {
        let total = eventCount
        guard total > limit, !items.isEmpty else { return 0 }
        for i in items.indices { items[i].expandRuns() }
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

    // Field numbers of perfetto/trace/trace_packet.proto, interned_data.proto and track_event/*.proto.
    fileprivate enum F {
        static let tracePacket = 1
        static let timestamp = 8, trustedSequence = 10, sequenceFlags = 13, trackEvent = 11, trackDescriptor = 60
        static let internedData = 12, eventNames = 2, debugAnnotationNames = 3, iid = 1, internedName = 2
        static let uuid = 1, name = 2, process = 3, thread = 4, parentUUID = 5, counter = 8
        static let pid = 1, processName = 6, tid = 2, threadName = 5
        static let unitName = 6
        static let clockSnapshot = 6, clocks = 1, clockID = 1, clockTimestamp = 2, isIncremental = 3
        static let packetDefaults = 59, timestampClockID = 58, trackEventDefaults = 11, defaultTrackUUID = 11
    }

    /// `BuiltinClocks.BOOTTIME`, the clock a packet's timestamp is in unless it says otherwise.
    fileprivate static let bootTimeClock: UInt64 = 6
    /// The sequence-scoped clock (ids 64–127 are the producer's) whose timestamps are deltas: each
    /// event packet's timestamp is the time since the packet before it on the sequence
    /// (`ClockSnapshot.Clock.is_incremental`), a byte or three instead of five or six.
    fileprivate static let incrementalClock: UInt64 = 64

    /// `TracePacket.SequenceFlags`.
    fileprivate enum SequenceFlag {
        static let incrementalStateCleared: UInt64 = 1
        static let needsIncrementalState: UInt64 = 2
    }

    fileprivate enum EventType: UInt64 {
        case sliceBegin = 1
        case sliceEnd = 2
        case instant = 3
        case counter = 4
    }

    /// The interned name of every slice's and instant's annotation (`DebugAnnotationName.iid`).
    fileprivate static let valueNameID: UInt64 = 1
    /// The interned name of an idle stretch's count of frames (`TraceEvent.Kind.idle`), interned
    /// only by items that have one.
    fileprivate static let framesNameID: UInt64 = 2

    /// The trace as protobuf bytes.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        let buffer = PacketBuffer(capacity: Self.chunk + 4096)
        var uuid: UInt64 = 1
        for (index, item) in items.enumerated() {
            uuid = Self.encode(item, pid: index + 1, firstUUID: uuid, into: buffer) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// One item's packets — its process and track descriptors and interned names, then its events
    /// in time order — as bytes of a `Trace`, handed to `emit` in chunks of whole packets (about
    /// 1 MiB). Its tracks take the uuids from `firstUUID` on; returns the next free one.
    /// Concatenating the items' packets in pid order, each starting at the uuid the previous one
    /// returned, gives `encoded()`; `PerfettoStream` does that one item at a time.
    @discardableResult
    public static func encode(
        _ item: ItemTrace,
        pid: Int,
        firstUUID: UInt64 = 1,
        emit: ([UInt8]) throws -> Void
    ) rethrows
        -> UInt64
    {
        try encode(item, pid: pid, firstUUID: firstUUID, into: PacketBuffer(capacity: Self.chunk + 4096)) { try emit(Array($0)) }
    }

    /// `encode(_:pid:firstUUID:emit:)` into `out`, whose storage is reused (a stream keeps one for
    /// the run); `emit` sees each chunk only during the call.
    ///
    /// Packets are encoded as the events are walked in time order, straight into `out`: at each
    /// start time, first the slice ends due by then (a heap holds the slices still open), then
    /// the instants and counters, then the begins. That is the order of sorting all packets by
    /// (time; ends, then instants and counters, then begins; creation order), which the trace
    /// processor needs within one sequence, without building or sorting a packet per event.
    ///
    /// Sizes (the trace is written at tens of millions of packets): each item starts its
    /// own incremental state (`SEQ_INCREMENTAL_STATE_CLEARED` on its first packet), as Perfetto's
    /// SDK does, and every event packet uses it and says `SEQ_NEEDS_INCREMENTAL_STATE`:
    /// - names: the item's first `internedNames` event names and the annotation name `value` are
    ///   interned once (`interned_data`), so an event carries `name_iid` and the annotation's
    ///   `name_iid` instead of the strings (rarer names stay in place);
    /// - timestamps: on a sequence-scoped incremental clock (`TracePacketDefaults.
    ///   timestamp_clock_id`, a `ClockSnapshot` that starts it at BOOTTIME 0), each the time since
    ///   the packet before — one to four bytes instead of five or six;
    /// - tracks: the item's busiest track is `TrackEventDefaults.track_uuid`, which its events
    ///   leave out; the others' uuids count up from 1 over the whole trace (one to three bytes).
    ///
    /// An item's runs (`SliceRun`) hold idle frames, which are drawn as stretches: the item is
    /// collapsed first (`collapsingIdleFrames`), so what is walked is events only.
    ///
    /// With `keepingTail`, the item's packets go after what `out` holds (an earlier item's tail)
    /// and only whole chunks are handed on: what is left stays in `out` for the next item or the
    /// caller (`PerfettoStream` hands it on at the end), so that a small item's packets are not
    /// a short write of their own (copied into the file's buffer first).
    @discardableResult
    static func encode(
        _ item: ItemTrace,
        pid: Int,
        firstUUID: UInt64 = 1,
        into out: PacketBuffer,
        keepingTail: Bool = false,
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> UInt64 {
        let processUUID = firstUUID
        if !keepingTail { out.removeAll() }
        // Most items have no idle frames and record their events in time order: then the plan
        // finds that out on its way (one pass over the events instead of a scan and the plan),
        // and the events are walked where they lie.
        if !item.runs.contains(where: { $0.count > 0 }) {
            let done: UInt64? = try item.events.withUnsafeBufferPointer { events in
                let order = EventOrder(base: events.baseAddress, sorted: nil, count: events.count)
                guard let plan = TrackPlan(order: order, asTheyLie: true) else { return nil }
                return try encode(
                    item,
                    timeline: order,
                    plan: plan,
                    pid: pid,
                    processUUID: processUUID,
                    into: out,
                    keepingTail: keepingTail,
                    emit: emit
                )
            }
            if let done { return done }
        }
        // Idle frames are drawn as stretches (`collapsingIdleFrames`), by reference: the events
        // the collapse keeps are read where they are, not copied (`collapsedTimeline`).
        var source = item
        var collapsed = item.collapsedTimeline()
        if collapsed == nil {
            source = item.collapsingIdleFrames()
            collapsed = ItemTrace.CollapsedTimeline(handles: [], extras: [], isUnchanged: true)
        }
        let timeline = collapsed.unsafelyUnwrapped
        // Read in place: pointers to the events, not copies of them.
        return try source.events.withUnsafeBufferPointer { events in
            try timeline.extras.withUnsafeBufferPointer { extras in
                let n = events.count
                let pointers =
                    timeline.isUnchanged
                    ? events.indices.map { events.baseAddress.unsafelyUnwrapped + $0 }
                    : timeline.handles.map { h in
                        h < n ? events.baseAddress.unsafelyUnwrapped + Int(h) : extras.baseAddress.unsafelyUnwrapped + (Int(h) - n)
                    }
                let sorted = Self.timeOrder(pointers)
                return try sorted.withUnsafeBufferPointer { sorted in
                    let order = EventOrder(base: nil, sorted: sorted.baseAddress, count: sorted.count)
                    return try encode(
                        source,
                        timeline: order,
                        plan: nil,
                        pid: pid,
                        processUUID: processUUID,
                        into: out,
                        keepingTail: keepingTail,
                        emit: emit
                    )
                }
            }
        }
    }

    /// The packets before an item's events: its process track, one track per thread or counter
    /// (`plan.names`), and with interning the event names and debug-annotation names the events
    /// refer to by id.
    private static func descriptors(_ item: ItemTrace, plan: TrackPlan, pid: Int, processUUID: UInt64) -> ProtobufWriter {
        var head = ProtobufWriter()
        // The item starts the sequence's incremental state afresh, as Perfetto's SDK does
        // (`TrackEventInternal::ResetIncrementalState`): the packet defaults (timestamps on the
        // incremental clock, events on the item's busiest track unless they name another) and a
        // clock snapshot that starts the incremental clock at 0 = BOOTTIME 0, so that a delta
        // summed from here is the event's own time. The trace processor reads a packet with a
        // clock snapshot for its defaults and snapshot only, so nothing else goes in it.
        head.message(F.tracePacket) { p in
            p.varint(F.trustedSequence, 1)
            p.varint(F.sequenceFlags, SequenceFlag.incrementalStateCleared)
            p.message(F.packetDefaults) { d in
                d.varint(F.timestampClockID, Self.incrementalClock)
                if !plan.names.isEmpty {
                    d.message(F.trackEventDefaults) { e in e.varint(F.defaultTrackUUID, processUUID + UInt64(plan.defaultTrack) + 1) }
                }
            }
            p.message(F.clockSnapshot) { c in
                c.message(F.clocks) { clock in
                    clock.varint(F.clockID, Self.bootTimeClock)
                    clock.varint(F.clockTimestamp, 0)
                }
                c.message(F.clocks) { clock in
                    clock.varint(F.clockID, Self.incrementalClock)
                    clock.varint(F.clockTimestamp, 0)
                    clock.varint(F.isIncremental, 1)
                }
            }
        }
        head.message(F.tracePacket) { p in
            p.varint(F.trustedSequence, 1)
            p.message(F.trackDescriptor) { d in
                d.varint(F.uuid, processUUID)
                d.message(F.process) { proc in
                    proc.varint(F.pid, UInt64(pid))
                    proc.string(F.processName, item.label)
                }
            }
        }
        for (t, name) in plan.names.enumerated() {
            let uuid = processUUID + UInt64(t + 1)
            head.message(F.tracePacket) { p in
                p.varint(F.trustedSequence, 1)
                p.message(F.trackDescriptor) { d in
                    d.varint(F.uuid, uuid)
                    d.varint(F.parentUUID, processUUID)
                    if let unit = plan.counterUnits[t] {
                        d.string(F.name, name)
                        d.message(F.counter) { c in c.string(F.unitName, unit) }
                    } else {
                        d.message(F.thread) { thread in
                            thread.varint(F.pid, UInt64(pid))
                            thread.varint(F.tid, UInt64(t + 1) + UInt64(pid) * 1000)
                            thread.string(F.threadName, name)
                        }
                    }
                }
            }
        }
        if plan.interns {
            head.message(F.tracePacket) { p in
                p.varint(F.trustedSequence, 1)
                p.varint(F.sequenceFlags, SequenceFlag.needsIncrementalState)
                p.message(F.internedData) { d in
                    for (k, name) in plan.eventNames.enumerated() {
                        d.message(F.eventNames) { e in
                            e.varint(F.iid, UInt64(k + 1))
                            e.string(F.internedName, name)
                        }
                    }
                    d.message(F.debugAnnotationNames) { e in
                        e.varint(F.iid, Self.valueNameID)
                        e.string(F.internedName, "value")
                    }
                    if plan.hasIdleStretches {
                        d.message(F.debugAnnotationNames) { e in
                            e.varint(F.iid, Self.framesNameID)
                            e.string(F.internedName, "frames")
                        }
                    }
                }
            }
        }
        return head
    }

    private static func encode(
        _ item: ItemTrace,
        timeline order: EventOrder,
        plan planned: TrackPlan?,
        pid: Int,
        processUUID: UInt64,
        into out: PacketBuffer,
        keepingTail: Bool,
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> UInt64 {
        // Without `asTheyLie` the plan always succeeds.
        let plan = planned ?? TrackPlan(order: order, asTheyLie: false).unsafelyUnwrapped
        defer { plan.deallocate() }
        let head = descriptors(item, plan: plan, pid: pid, processUUID: processUUID)
        out.append(head.bytes)

        // Read once: a static's every read goes through its lazy initializer's check
        // (`swift_once`), and this is read after every packet.
        let chunk = Self.chunk
        func flushIfFull() throws {
            guard out.count >= chunk else { return }
            try emit(out.bytes)
            out.removeAll()
        }
        let writer = EventPacketWriter(out: out, processUUID: processUUID, defaultTrack: plan.defaultTrack)
        var open = OpenSlices()
        var position = 0
        func event(_ k: Int) -> UnsafePointer<TraceEvent> { order[k] }
        // Each slice's place in the timeline: orders the ends of open slices that end
        // together, as their begins came.
        var sequence = 0
        func isSlice(_ k: Int) -> Bool { event(k).pointee.kind.isSlice }
        func write(_ k: Int, at time: Int64) {
            writer.event(event(k), at: time, track: plan.tracks[k], nameID: plan.nameIDs[k])
        }
        while position < order.count {
            let time = order.time(position)
            var groupEnd = position + 1
            var slices = isSlice(position) ? 1 : 0
            while groupEnd < order.count, order.time(groupEnd) == time {
                if isSlice(groupEnd) { slices += 1 }
                groupEnd += 1
            }
            // Most times have no end due (the heap is empty or ends later): asked inline first.
            while open.earliestEnd <= time, let end = open.popIfDue(by: time) {
                writer.end(end.time, track: end.track)
                try flushIfFull()
            }
            // The only slice at its time, ending before anything else happens (the next
            // start, any open slice's end): its end packet comes right after its begin
            // (which follows the time's instants and counters), so it is written now,
            // without going through the heap — an idle frame, a cache miss with its
            // occupancy sample.
            if slices == 1 {
                var slice = position
                while !isSlice(slice) { slice += 1 }
                let duration = event(slice).pointee.durationNanoseconds
                let end = time + max(1, duration)
                if open.earliestEnd > end, groupEnd == order.count || order.time(groupEnd) >= end {
                    for k in position..<groupEnd where k != slice {
                        write(k, at: time)
                        try flushIfFull()
                    }
                    write(slice, at: time)
                    writer.end(end, track: plan.tracks[slice])
                    try flushIfFull()
                    sequence += groupEnd - position
                    position = groupEnd
                    continue
                }
            }
            if slices < groupEnd - position {
                for k in position..<groupEnd where !isSlice(k) {
                    write(k, at: time)
                    try flushIfFull()
                }
            }
            if slices > 0 {
                for k in position..<groupEnd where isSlice(k) {
                    write(k, at: time)
                    let duration = event(k).pointee.durationNanoseconds
                    open.push(time: time + max(1, duration), sequence: Int32(sequence + k - position), track: plan.tracks[k])
                    try flushIfFull()
                }
            }
            sequence += groupEnd - position
            position = groupEnd
        }
        while let end = open.popIfDue(by: .max) {
            writer.end(end.time, track: end.track)
            try flushIfFull()
        }
        if keepingTail {
            try flushIfFull()
        } else if out.count > 0 {
            try emit(out.bytes)
        }
        return processUUID + UInt64(plan.names.count) + 1
    }

    /// Writes one event's `TracePacket { timestamp, trusted_packet_sequence_id, sequence_flags,
    /// track_event }` into a `PacketBuffer`, lengths computed first (keys spelled out as bytes;
    /// see `F` and perfetto's track_event.proto for their numbers). `ProtobufWriter` would write
    /// the same bytes, one array per message.
    ///
    /// Every packet leans on the item's incremental state (`descriptors`), so says
    /// `SEQ_NEEDS_INCREMENTAL_STATE`: its timestamp is the time since the previous event packet
    /// (the incremental clock), its track is left out when it is the default one, and names are
    /// interned where they can be.
    private struct EventPacketWriter {
        let out: PacketBuffer
        let processUUID: UInt64
        /// The track `TrackEventDefaults.track_uuid` names: its events carry no `track_uuid`.
        let defaultTrack: Int32
        /// The incremental clock's reading: the last event packet's time.
        let clock = SequenceClock()

        /// The previous packet's time on the item's sequence, which the next timestamp counts from.
        final class SequenceClock {
            @exclusivity(unchecked) var last: UInt64 = 0
        }

        /// A slice begin (with the slice's name, interned or in place, and value), an instant, or a
        /// counter sample.
        @inline(__always) func event(_ event: UnsafePointer<TraceEvent>, at time: Int64, track: Int32, nameID: Int32) {
            let uuid = track == defaultTrack ? 0 : processUUID + UInt64(track) + 1
            let kind = event.pointee.kind
            let type: EventType = kind.isSlice ? .sliceBegin : .instant
            let annotationName = kind == .idle ? PerfettoTrace.framesNameID : PerfettoTrace.valueNameID
            let now = UInt64(max(0, time))
            if kind == .counter || nameID != 0, now >= clock.last {
                short(
                    kind == .counter ? .counter : type,
                    uuid,
                    at: now,
                    nameID: UInt64(nameID),
                    value: event.pointee.value,
                    annotationName: annotationName
                )
            } else if kind == .counter {
                write(time, .counter, uuid, counter: event.pointee.value ?? 0, nameID: 0, name: nil, annotation: nil)
            } else if nameID != 0 {
                write(
                    time,
                    type,
                    uuid,
                    counter: nil,
                    nameID: UInt64(nameID),
                    name: nil,
                    annotation: event.pointee.value,
                    annotationName: annotationName
                )
            } else {
                // A numbered name's text, its number written in place (`NumberedName`): the
                // name's bytes as the table holds them, no copy of the string.
                let number = event.pointee.number
                write(
                    time,
                    type,
                    uuid,
                    counter: nil,
                    nameID: 0,
                    name: event.pointee.textName.utf8,
                    numberAt: Int(event.pointee.numberAt),
                    number: number < 0 ? nil : UInt64(number),
                    annotation: event.pointee.value,
                    annotationName: annotationName
                )
            }
        }

        /// A counter sample, or a begin or instant with an interned name (everything but a
        /// numbered name), at or after the last packet's time: the same bytes as `write`, without
        /// its options — every packet but ends comes here, and the general case took four times
        /// as long a packet as `end`. Lengths fit one byte (a packet is under 60 bytes).
        @inline(__always) private func short(
            _ type: EventType,
            _ uuid: UInt64,
            at now: UInt64,
            nameID: UInt64,
            value: Double?,
            annotationName: UInt64
        ) {
            let delta = now - clock.last
            clock.last = now
            let isCounter = type == .counter
            // A counter without a value samples 0; a whole number goes as a varint.
            let number = isCounter ? value ?? 0 : value
            var bits: UInt64 = 0
            var isWhole = false
            if let number {
                if let w = Self.whole(number) {
                    bits = w
                    isWhole = true
                } else {
                    bits = number.bitPattern
                }
            }
            let valueSize = isWhole ? PacketBuffer.varintSize(bits) : 8
            var trackEvent = 2  // type
            if uuid != 0 { trackEvent += 1 + PacketBuffer.varintSize(uuid) }  // track_uuid
            if isCounter {
                trackEvent += 2 + valueSize  // counter_value (30) or double_counter_value (44)
            } else {
                trackEvent += 1 + PacketBuffer.varintSize(nameID)  // name_iid (10)
                if number != nil { trackEvent += 2 + 3 + valueSize }  // debug_annotations (4)
            }
            let packet = 1 + PacketBuffer.varintSize(delta) + 2 + 2 + 2 + trackEvent
            out.write(reserving: 2 + packet) { out in
                Self.shortHead(&out, packet: packet, delta: delta, trackEvent: trackEvent, type: type, uuid: uuid)
                if isCounter {
                    if isWhole {
                        out.byte(0xF0)  // counter_value (30), varint
                        out.byte(0x01)
                        out.varint(bits)
                    } else {
                        out.byte(0xE1)  // double_counter_value (44), 64-bit
                        out.byte(0x02)
                        out.double(Double(bitPattern: bits))
                    }
                    return
                }
                out.byte(0x50)  // name_iid (10)
                out.varint(nameID)
                guard number != nil else { return }
                out.byte(0x22)  // debug_annotations (4)
                out.byte(UInt8(3 + valueSize))
                out.byte(0x08)  // name_iid (1)
                out.byte(UInt8(annotationName))
                if isWhole {
                    out.byte(0x20)  // int_value (4), varint
                    out.varint(bits)
                } else {
                    out.byte(0x29)  // double_value (5), 64-bit
                    out.double(Double(bitPattern: bits))
                }
            }
        }

        /// `value` as an `int64` varint's bits, if it is a whole number that an int64 holds exactly
        /// (and not -0, which would come back as 0).
        @inline(__always) static func whole(_ value: Double) -> UInt64? {
            // Range first (NaN fails it), then a round trip through Int64: no call to trunc.
            guard abs(value) < 0x1p53, Double(Int64(value)) == value, value != 0 || value.sign == .plus else { return nil }
            return UInt64(bitPattern: Int64(value))
        }

        /// A slice end: the commonest packet (every slice has one), so written here without the
        /// general case's options — the same bytes `write` would give.
        @inline(__always) func end(_ time: Int64, track: Int32) {
            let uuid = track == defaultTrack ? 0 : processUUID + UInt64(track) + 1
            let now = UInt64(max(0, time))
            guard now >= clock.last else {
                write(time, .sliceEnd, uuid, counter: nil, nameID: 0, name: nil, annotation: nil)
                return
            }
            let delta = now - clock.last
            clock.last = now
            let trackEvent = uuid == 0 ? 2 : 3 + PacketBuffer.varintSize(uuid)  // type, track_uuid
            let packet = 1 + PacketBuffer.varintSize(delta) + 2 + 2 + 2 + trackEvent  // at most 30 bytes
            out.write(reserving: 2 + packet) { out in
                Self.shortHead(&out, packet: packet, delta: delta, trackEvent: trackEvent, type: .sliceEnd, uuid: uuid)
            }
        }

        /// The head of a short event packet (under 128 bytes, its track event too), shared by the
        /// two short paths: the packet's key and length, the timestamp delta, the sequence and its
        /// flags, then the track event's key, length, type and (off the default track) track uuid.
        @inline(__always) static func shortHead(
            _ out: inout PacketBuffer.Cursor,
            packet: Int,
            delta: UInt64,
            trackEvent: Int,
            type: EventType,
            uuid: UInt64
        ) {
            out.byte(0x0A)  // Trace.packet (1)
            out.byte(UInt8(packet))
            out.byte(0x40)  // timestamp (8)
            out.varint(delta)
            out.byte(0x50)  // trusted_packet_sequence_id (10) = 1
            out.byte(1)
            out.byte(0x68)  // sequence_flags (13) = SEQ_NEEDS_INCREMENTAL_STATE
            out.byte(UInt8(SequenceFlag.needsIncrementalState))
            out.byte(0x5A)  // track_event (11)
            out.byte(UInt8(trackEvent))
            out.byte(0x48)  // type (9)
            out.byte(UInt8(type.rawValue))
            if uuid != 0 {
                out.byte(0x58)  // track_uuid (11)
                out.varint(uuid)
            }
        }

        /// `nameID` 0: `name` in place, or no name; with a `number`, its digits go at `numberAt`
        /// in `name`; `uuid` 0: the default track.
        @inline(__always) private func write(
            _ time: Int64,
            _ type: EventType,
            _ uuid: UInt64,
            counter: Double?,
            nameID: UInt64,
            name: UnsafeBufferPointer<UInt8>?,
            numberAt: Int = 0,
            number: UInt64? = nil,
            annotation: Double?,
            annotationName: UInt64 = PerfettoTrace.valueNameID
        ) {
            // Times come in order (`encode` walks them so), so the delta is never negative; if one
            // were, the packet would say its time on BOOTTIME outright, as the SDK does, leaving
            // the incremental clock where it was.
            let now = UInt64(max(0, time))
            let incremental = now >= clock.last
            let timestamp = incremental ? now - clock.last : now
            if incremental { clock.last = now }
            var trackEvent = 2  // type
            if uuid != 0 { trackEvent += 1 + PacketBuffer.varintSize(uuid) }  // track_uuid
            // A whole number (a count, a key) goes as a varint: `counter_value` (30) instead of
            // `double_counter_value` (44), a debug annotation's `int_value` (4) instead of its
            // `double_value` (5); the trace processor reads either as the same number.
            let counterInt = counter.flatMap(Self.whole)
            let annotationInt = annotation.flatMap(Self.whole)
            if counter != nil { trackEvent += 2 + (counterInt.map { PacketBuffer.varintSize($0) } ?? 8) }
            if nameID != 0 { trackEvent += 1 + PacketBuffer.varintSize(nameID) }  // name_iid (10)
            let digits = number.map(NumberedName.digits) ?? 0
            let nameLength = (name?.count ?? 0) + digits
            if name != nil { trackEvent += 2 + PacketBuffer.varintSize(UInt64(nameLength)) + nameLength }  // name (23)
            // debug_annotations (4): name_iid, then int_value or double_value
            let annotationSize = 2 + 1 + (annotationInt.map { PacketBuffer.varintSize($0) } ?? 8)
            if annotation != nil { trackEvent += 2 + annotationSize }
            // timestamp, trusted_packet_sequence_id, sequence_flags, track_event's key and length
            var packet = 1 + PacketBuffer.varintSize(timestamp) + 2 + 2 + 1 + PacketBuffer.varintSize(UInt64(trackEvent)) + trackEvent
            if !incremental { packet += 3 }  // timestamp_clock_id (58) = BOOTTIME
            out.write(reserving: 1 + PacketBuffer.varintSize(UInt64(packet)) + packet) { out in
                out.byte(0x0A)  // Trace.packet (1)
                out.varint(UInt64(packet))
                out.byte(0x40)  // timestamp (8)
                out.varint(timestamp)
                if !incremental {
                    out.byte(0xD0)  // timestamp_clock_id (58)
                    out.byte(0x03)
                    out.byte(UInt8(PerfettoTrace.bootTimeClock))
                }
                out.byte(0x50)  // trusted_packet_sequence_id (10) = 1
                out.byte(1)
                out.byte(0x68)  // sequence_flags (13) = SEQ_NEEDS_INCREMENTAL_STATE
                out.byte(UInt8(SequenceFlag.needsIncrementalState))
                out.byte(0x5A)  // track_event (11)
                out.varint(UInt64(trackEvent))
                out.byte(0x48)  // type (9)
                out.byte(UInt8(type.rawValue))
                if uuid != 0 {
                    out.byte(0x58)  // track_uuid (11)
                    out.varint(uuid)
                }
                if let counterInt {
                    out.byte(0xF0)  // counter_value (30), varint
                    out.byte(0x01)
                    out.varint(counterInt)
                } else if let counter {
                    out.byte(0xE1)  // double_counter_value (44), 64-bit
                    out.byte(0x02)
                    out.double(counter)
                }
                if nameID != 0 {
                    out.byte(0x50)  // name_iid (10)
                    out.varint(nameID)
                }
                if let name {
                    out.byte(0xBA)  // name (23)
                    out.byte(0x01)
                    out.varint(UInt64(nameLength))
                    if let number {
                        let at = min(max(0, numberAt), name.count)
                        out.raw(UnsafeBufferPointer(rebasing: name[..<at]))
                        out.decimal(number, digits: digits)
                        out.raw(UnsafeBufferPointer(rebasing: name[at...]))
                    } else {
                        out.raw(name)
                    }
                }
                if let annotation {
                    out.byte(0x22)  // debug_annotations (4)
                    out.byte(UInt8(annotationSize))
                    out.byte(0x08)  // name_iid (1)
                    out.byte(UInt8(annotationName))
                    if let annotationInt {
                        out.byte(0x20)  // int_value (4), varint
                        out.varint(annotationInt)
                    } else {
                        out.byte(0x29)  // double_value (5), 64-bit
                        out.double(annotation)
                    }
                }
            }
        }
    }

    /// How many distinct event names an item interns at most.
    static let internedNames = 32

    /// How many bytes `encode` gathers before handing them on.
    static let chunk = 1 << 20

    /// The events (given in creation order) by start time, then creation order: one pass reads
    /// each start once, and a sort orders them when they do not come in order.
    private static func timeOrder(_ events: [UnsafePointer<TraceEvent>]) -> [UnsafePointer<TraceEvent>] {
        var inOrder = true
        var last = Int64.min
        for event in events {
            let t = event.pointee.startNanoseconds
            if t < last { inOrder = false }
            last = t
        }
        if inOrder { return events }
        var keys = events.indices.map { (time: events[$0].pointee.startNanoseconds, index: Int32($0)) }
        keys.sort { ($0.time, $0.index) < ($1.time, $1.index) }
        return keys.map { events[Int($0.index)] }
    }

    /// The events in time order, as the plan and the walk read them: the item's events where they
    /// lie (`base`, when they come in order) or pointers sorted by time.
    fileprivate struct EventOrder {
        let base: UnsafePointer<TraceEvent>?
        let sorted: UnsafePointer<UnsafePointer<TraceEvent>>?
        let count: Int

        @inline(__always) subscript(_ k: Int) -> UnsafePointer<TraceEvent> {
            if let sorted { return sorted[k] }
            return base.unsafelyUnwrapped + k
        }

        /// The start of the `k`th event in time order.
        @inline(__always) func time(_ k: Int) -> Int64 { self[k].pointee.startNanoseconds }
    }

    /// The item's tracks, in the order their first event comes in time: each actor's track, its
    /// extra lanes (`actor #2`, …) where its slices overlap, and counter tracks; and the track of
    /// each event (by its position in time order).
    private struct TrackPlan {
        var names: [String] = []
        /// A counter track's unit (its last sample's), nil for a thread track.
        var counterUnits: [String?] = []
        var tracks: UnsafeBufferPointer<Int32>
        /// The distinct names of slices and instants, in order of first use: interned name `k` is
        /// `eventNames[k - 1]`.
        var eventNames: [String] = []
        /// Whether any event uses an interned name (its own or its annotation's).
        var interns = false
        /// Whether any event is an idle stretch (whose annotation is `frames`).
        var hasIdleStretches = false
        /// The track with the most packets (the first of those): the item's
        /// `TrackEventDefaults.track_uuid`, which its events do not repeat.
        var defaultTrack: Int32 = 0
        /// Each event's interned name (by its position in time order); 0 for a counter and for a
        /// name written in place.
        var nameIDs: UnsafeBufferPointer<Int32>

        /// One distinct `TraceEvent.track`: its own track, and its lanes with when each is free.
        private struct Actor {
            var track: Int32 = -1
            var laneEnds: [Int64] = []
            var laneTracks: [Int32] = []

            /// Puts a slice from `start` to `end` on the first lane free by `start` (a new lane, its
            /// track not yet named, when none is) and returns that lane.
            @inline(__always) mutating func place(from start: Int64, to end: Int64) -> Int {
                guard let lane = laneEnds.firstIndex(where: { $0 <= start }) else {
                    laneEnds.append(end)
                    laneTracks.append(-1)
                    return laneEnds.count - 1
                }
                laneEnds[lane] = end
                return lane
            }
        }

        /// Gives track `t`, when `track` has just named it, its slots in the per-track arrays. A
        /// function of its own, not a closure: the arrays stay unboxed locals of the plan.
        @inline(__always) private static func slots(for t: Int32, _ counterLast: inout [Int32], _ trackPackets: inout [Int]) {
            guard Int(t) == counterLast.count else { return }
            counterLast.append(-1)
            trackPackets.append(0)
        }

        /// The plan of the events in `order`; with `asTheyLie` (the item's events as they were
        /// recorded), nil as soon as one starts before the one before it or is an idle frame,
        /// which `encode` then collapses and orders first.
        init?(order: EventOrder, asTheyLie: Bool) {
            // Everything the loop below changes is a local that no closure captures: a captured
            // variable lives in a box whose every access is checked for exclusivity at run time
            // (`swift_beginAccess`, a few percent of a traced run). The lookups on a
            // miss capture only what they alone change.
            var names: [String] = []
            // Not touched by `track`, which only names tracks: the loop gives each new one its slot.
            // Each track's last counter sample (its place in time order; -1 for a thread track): its
            // unit is read once at the end, not stored (a string's retain and release) per sample.
            var counterLast: [Int32] = []
            // Each track's packets (a slice two): the busiest is the item's default track.
            var trackPackets: [Int] = []
            var interns = false
            var hasIdleStretches = false
            var byName: [String: Int32] = [:]
            var actors: [Actor] = []
            var actorNames: [String] = []
            var actorByName: [String: Int] = [:]
            // Written in place, one slot per event (no uniqueness check and growth test per
            // append, no copy into an array after); `deallocate()` frees them.
            let plannedTracks = UnsafeMutableBufferPointer<Int32>.allocate(capacity: order.count)
            let plannedNames = UnsafeMutableBufferPointer<Int32>.allocate(capacity: order.count)
            func track(_ name: String) -> Int32 {
                if let known = byName[name] { return known }
                let index = Int32(names.count)
                byName[name] = index
                names.append(name)
                return index
            }
            // Most items have a handful of actors: a linear scan with `==` (a compare of two
            // words for short names) costs less than hashing each event's track name. A new
            // actor's index is `actorNames.count - 1`; the loop adds its `Actor`.
            func actor(_ name: String) -> Int32 {
                if actorNames.count <= 16 {
                    if let i = actorNames.firstIndex(of: name) { return Int32(i) }
                } else if let i = actorByName[name] {
                    return Int32(i)
                }
                actorNames.append(name)
                actorByName[name] = actorNames.count - 1
                return Int32(actorNames.count - 1)
            }
            // Interned: the first `internedNames` distinct names (`InternedNames`); names past
            // those are written in place.
            var interned = InternedNames()
            // Before those lookups, the name (`TraceName`, a number): equal names find the
            // answer without comparing characters.
            var trackCache = NameCache()
            var nameCache = NameCache()
            let frame = ItemTrace.frameName
            var lastStart = Int64.min
            for k in 0..<order.count {
                let event = order[k]
                let kind = event.pointee.kind
                if asTheyLie {
                    let start = event.pointee.startNanoseconds
                    if start < lastStart || ItemTrace.isIdleFrame(event, frame: frame) {
                        plannedTracks.deallocate()
                        plannedNames.deallocate()
                        return nil
                    }
                    lastStart = start
                }
                let a = Int(trackCache.lookup(event.pointee.trackName) { actor(event.pointee.track) })
                let nameID: Int32
                if kind == .counter || event.pointee.number >= 0 {
                    // A numbered name (`NumberedName`, each used once or twice) is written in
                    // place: its text is shared, so its words would find another number's id.
                    nameID = 0
                } else if let known = nameCache.cached(event.pointee.textName) {
                    nameID = known
                } else {
                    // A miss (a name new to the item, or a collision): asked of a local struct,
                    // not a closure whose captured state is checked for exclusivity per call.
                    nameID = interned.id(of: event.pointee.text)
                    nameCache.remember(event.pointee.textName, nameID)
                }
                if kind != .counter, nameID != 0 || event.pointee.value != nil { interns = true }
                if a == actors.count { actors.append(Actor()) }  // `actor` just named a new one
                plannedNames[k] = nameID
                switch kind {
                case .slice, .idle:
                    if kind == .idle { hasIdleStretches = true }
                    let start = event.pointee.startNanoseconds
                    let lane = actors[a].place(from: start, to: start + max(1, event.pointee.durationNanoseconds))
                    if actors[a].laneTracks[lane] < 0 {
                        let name = actorNames[a]
                        let t = track(lane == 0 ? name : "\(name) #\(lane + 1)")
                        Self.slots(for: t, &counterLast, &trackPackets)
                        actors[a].laneTracks[lane] = t
                    }
                    plannedTracks[k] = actors[a].laneTracks[lane]
                    trackPackets[Int(actors[a].laneTracks[lane])] &+= 2
                case .instant, .counter:
                    if actors[a].track < 0 {
                        let t = track(actorNames[a])
                        Self.slots(for: t, &counterLast, &trackPackets)
                        actors[a].track = t
                    }
                    let t = actors[a].track
                    if kind == .counter { counterLast[Int(t)] = Int32(k) }
                    plannedTracks[k] = t
                    trackPackets[Int(t)] &+= 1
                }
            }
            self.names = names
            defaultTrack = Int32(trackPackets.indices.max { trackPackets[$0] < trackPackets[$1] } ?? 0)
            counterUnits = counterLast.map { $0 < 0 ? nil : order[Int($0)].pointee.text }
            self.eventNames = interned.names
            self.interns = interns
            self.hasIdleStretches = hasIdleStretches
            tracks = UnsafeBufferPointer(plannedTracks)
            nameIDs = UnsafeBufferPointer(plannedNames)
        }

        /// Frees `tracks` and `nameIDs`; the plan is not used after.
        func deallocate() {
            tracks.deallocate()
            nameIDs.deallocate()
        }
    }

    /// A string's length and its first and last eight UTF-8 bytes: names with different keys
    /// differ, so a lookup compares characters only on equal keys.
    private struct NameKey: Equatable {
        var length: Int
        var head: UInt64
        var tail: UInt64

        /// Its slot in a table of `count` slots (a power of two).
        func slot(in count: Int) -> Int {
            let mixed = (head &+ tail &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: length)) &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: mixed >> 32) & (count - 1)
        }

        init(_ name: String) {
            length = name.utf8.count
            head = 0
            tail = 0
            // Native strings (all of a workload's names) are contiguous: the bytes read in place.
            let read: Bool? = name.utf8.withContiguousStorageIfAvailable { utf8 in
                Self.words(utf8, &head, &tail)
                return true
            }
            if read == nil {
                var name = name
                name.withUTF8 { Self.words($0, &head, &tail) }
            }
        }

        private static func words(_ utf8: UnsafeBufferPointer<UInt8>, _ head: inout UInt64, _ tail: inout UInt64) {
            let n = utf8.count
            if n >= 8, let base = utf8.baseAddress {
                // Two loads, the same words as the loops below (little-endian, as every platform
                // Swift runs this on): every name new to an item's plan is read so.
                head = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
                tail = UInt64(littleEndian: UnsafeRawPointer(base + (n - 8)).loadUnaligned(as: UInt64.self))
                return
            }
            for i in 0..<min(8, n) { head |= UInt64(utf8[i]) << (8 * UInt64(i)) }
            let from = max(0, n - 8)
            for i in from..<n { tail |= UInt64(utf8[i]) << (8 * UInt64(i - from)) }
        }
    }

    /// An item's interned event names: its first `internedNames` distinct names, found through a
    /// small open-addressed table of their `NameKey`s, so that characters are compared only for
    /// names of the same key (names that differ only in a number). Names past those are written
    /// in place: each such miss probes a slot or two instead of comparing its key with all 32.
    /// Numbered names (`NumberedName`: bench-group's ~380,000 per-flow names, each used once or
    /// twice) never come here: they are written in place from their parts.
    private struct InternedNames {
        /// Interned name `k` is `names[k - 1]`.
        private(set) var names: [String] = []
        private var keys: [NameKey] = []
        /// Slot → index in `names` + 1 (0: empty); a power of two at least twice `internedNames`,
        /// so a probe ends at an empty slot.
        private var slots = [Int8](repeating: 0, count: 64)

        /// The name's id (from 1), or 0 if it is written in place.
        mutating func id(of name: String) -> Int32 {
            let key = NameKey(name)
            var slot = key.slot(in: slots.count)
            while slots[slot] != 0 {
                let i = Int(slots[slot]) - 1
                if keys[i] == key && names[i] == name { return Int32(i + 1) }
                slot = (slot + 1) & (slots.count - 1)
            }
            guard names.count < PerfettoTrace.internedNames else { return 0 }
            names.append(name)
            keys.append(key)
            slots[slot] = Int8(names.count)
            return Int32(names.count)
        }
    }

    /// A small direct-mapped cache from a name (`TraceName`) to what a lookup by its characters
    /// returned: a hit costs a compare of two numbers. Names are never freed, so an entry stays
    /// true for the life of the plan.
    private struct NameCache {
        /// A slot: a name's id and what its lookup gave (-1: empty).
        private struct Entry {
            var name: UInt32 = .max
            var value: Int32 = -1
        }
        private var entries = [Entry](repeating: Entry(), count: 64)
        /// The last name looked up: events often repeat their neighbour's name or track, and a
        /// compare costs less than the probe.
        private var last = Entry()

        /// What the lookup of `name` gave, if it was looked up.
        @inline(__always) mutating func cached(_ name: TraceName) -> Int32? {
            if last.value >= 0, last.name == name.id { return last.value }
            let entry = entries[Self.slot(name)]
            guard entry.value >= 0, entry.name == name.id else { return nil }
            last = entry
            return entry.value
        }

        /// Keeps `value` as what `name` looks up to.
        @inline(__always) mutating func remember(_ name: TraceName, _ value: Int32) {
            let found = Entry(name: name.id, value: value)
            entries[Self.slot(name)] = found
            last = found
        }

        /// Names are numbered in order of first use: the low bits spread a run's names.
        @inline(__always) private static func slot(_ name: TraceName) -> Int { Int(name.id & 63) }

        @inline(__always) mutating func lookup(_ name: TraceName, _ slow: () -> Int32) -> Int32 {
            if let known = cached(name) { return known }
            let value = slow()
            remember(name, value)
            return value
        }
    }

    /// The slices begun and not yet ended, by (end time, creation order): a binary min-heap.
    private struct OpenSlices {
        struct End {
            var time: Int64
            var sequence: Int32
            var track: Int32
        }
        private var heap: [End] = []

        private static func before(_ a: End, _ b: End) -> Bool { (a.time, a.sequence) < (b.time, b.sequence) }

        mutating func push(time: Int64, sequence: Int32, track: Int32) {
            heap.append(End(time: time, sequence: sequence, track: track))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.before(heap[child], heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        /// When the earliest open slice ends (`Int64.max` if none is open).
        var earliestEnd: Int64 {
            @inline(__always) get { heap.first?.time ?? .max }
        }

        /// The earliest end, if it is at or before `time`.
        mutating func popIfDue(by time: Int64) -> End? {
            guard let top = heap.first, top.time <= time else { return nil }
            let last = heap.removeLast()
            guard !heap.isEmpty else { return top }
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, Self.before(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, Self.before(heap[right], heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
            return top
        }
    }
}

extension TraceEvent.Kind {
    /// Drawn as a slice: a slice, or an idle stretch.
    fileprivate var isSlice: Bool { self == .slice || self == .idle }
}
