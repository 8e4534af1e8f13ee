/// What a packet sequence carries from one packet to the next, and the clocks its timestamps
/// may be on: read as trace_packet.proto and clock_snapshot.proto define them.
extension PerfettoSignpostReader {
    /// `ClockSnapshot.Clock.BuiltinClocks.BOOTTIME`: the trace's clock, in which timestamps are
    /// read unless a packet or its sequence's defaults name another.
    static let bootTime: UInt64 = 6

    /// One sequence's incremental state, all of it dropped when the sequence clears it
    /// (`SEQ_INCREMENTAL_STATE_CLEARED`, `incremental_state_cleared`).
    struct SequenceState {
        var eventNames: [UInt64: String] = [:]
        var annotationNames: [UInt64: String] = [:]
        /// `TracePacketDefaults.timestamp_clock_id`.
        var defaultClock: UInt64?
        /// `TrackEventDefaults.track_uuid`.
        var defaultTrack: UInt64? { didSet { hadDefaultTrack = hadDefaultTrack || defaultTrack != nil } }
        /// Whether the sequence ever named a default track; kept across resets. An event with no
        /// track on a sequence that never did is the older SDKs' form (its thread descriptor stands
        /// for the track) and reads as before, on no known process (track 0); on one whose default
        /// a reset cleared, it leans on state that is gone, and is an error.
        var hadDefaultTrack = false
        /// The sequence-scoped clocks (ids 64–127) of its latest snapshot that had BOOTTIME.
        var clocks: [SnapshotClock] = []
    }

    /// A clock as its latest snapshot relates it to BOOTTIME.
    struct SnapshotClock {
        var id: UInt64
        /// The snapshot's BOOTTIME reading, nanoseconds.
        var bootTime: UInt64
        /// The snapshot's reading of this clock, in its units.
        var at: UInt64
        /// Nanoseconds per unit (`unit_multiplier_ns`, 1 when absent).
        var multiplier: UInt64
        var incremental: Bool
        /// An incremental clock's last value, in its units: a packet's timestamp adds to it.
        var last: UInt64
    }

    /// Makes `sequence`'s state the current one; the one it replaces goes back to the table.
    /// Most traces keep to one sequence for long stretches, so a packet rarely looks it up.
    mutating func enter(_ sequence: UInt64) {
        guard sequence != currentSequence else { return }
        sequences[currentSequence] = current
        current = sequences.removeValue(forKey: sequence) ?? SequenceState()
        currentSequence = sequence
    }

    /// `TracePacketDefaults { timestamp_clock_id 58, track_event_defaults 11 { track_uuid 11 } }`.
    mutating func packetDefaults(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws {
        var f = ProtobufFields(b, range)
        while let (field, value) = try f.next() {
            switch (field, value) {
            case (58, .varint(let v)): current.defaultClock = v
            case (11, .bytes(let r)):
                var e = ProtobufFields(b, r)
                while let (ef, ev) = try e.next() {
                    if case (11, .varint(let v)) = (ef, ev) { current.defaultTrack = v }
                }
            default: break
            }
        }
    }

    /// `ClockSnapshot { clocks 1 { clock_id 1, timestamp 2, is_incremental 3, unit_multiplier_ns
    /// 4 } }`: each clock it names is related to BOOTTIME anew (sequence-scoped ones on this
    /// sequence, the others for the whole trace). Without a BOOTTIME reading it relates nothing,
    /// and the clocks it names are forgotten: a timestamp on them is then an error, not a guess.
    mutating func clockSnapshot(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws {
        var f = ProtobufFields(b, range)
        var clocks: [SnapshotClock] = []
        var boot: UInt64?
        while let (field, value) = try f.next() {
            guard case (1, .bytes(let r)) = (field, value) else { continue }
            var c = ProtobufFields(b, r)
            var clock = SnapshotClock(id: 0, bootTime: 0, at: 0, multiplier: 1, incremental: false, last: 0)
            while let (cf, cv) = try c.next() {
                switch (cf, cv) {
                case (1, .varint(let v)): clock.id = v
                case (2, .varint(let v)): clock.at = v
                case (3, .varint(let v)): clock.incremental = v != 0
                case (4, .varint(let v)): clock.multiplier = max(v, 1)
                default: break
                }
            }
            if clock.id == Self.bootTime { boot = clock.at } else if clock.id != 0 { clocks.append(clock) }
        }
        for var clock in clocks {
            let scoped = Self.isSequenceScoped(clock.id)
            if scoped { current.clocks.removeAll { $0.id == clock.id } } else { globalClocks.removeAll { $0.id == clock.id } }
            guard let boot else { continue }
            clock.bootTime = boot
            clock.last = clock.at
            if scoped { current.clocks.append(clock) } else { globalClocks.append(clock) }
        }
    }

    static func isSequenceScoped(_ clock: UInt64) -> Bool { clock >= 64 && clock < 128 }

    /// A packet's timestamp in nanoseconds of BOOTTIME: on BOOTTIME (or 0, the trace's clock) as
    /// written; on another clock converted through its latest snapshot, BOOTTIME = snapshot's
    /// BOOTTIME + (t − snapshot's t) × unit multiplier, where an incremental clock's t is its last
    /// value plus the timestamp.
    mutating func traceTime(_ stamp: UInt64, clock: UInt64) throws(TraceImportError) -> Int64 {
        if clock == Self.bootTime || clock == 0 {
            guard stamp <= UInt64(Int64.max) else { throw fail("packet \(packets): timestamp \(stamp) is out of range") }
            return Int64(stamp)
        }
        let scoped = Self.isSequenceScoped(clock)
        // In place: the clock's last value is updated where it lies.
        var time: Int64??
        if scoped {
            for k in current.clocks.indices where current.clocks[k].id == clock {
                time = Self.convert(stamp, &current.clocks[k])
                break
            }
        } else {
            for k in globalClocks.indices where globalClocks[k].id == clock {
                time = Self.convert(stamp, &globalClocks[k])
                break
            }
        }
        guard let time else {
            let place = scoped ? "on sequence \(currentSequence) since its last reset" : "in the trace"
            throw fail(
                "packet \(packets): timestamp \(stamp) is on clock \(clock), which no clock snapshot with BOOTTIME has defined \(place)"
            )
        }
        guard let time else { throw fail("packet \(packets): timestamp \(stamp) on clock \(clock) is out of range") }
        return time
    }

    /// `stamp` on clock `c` in nanoseconds of BOOTTIME, moving an incremental clock on; nil when
    /// it does not fit (before BOOTTIME 0, or past 2^63 ns).
    private static func convert(_ stamp: UInt64, _ c: inout SnapshotClock) -> Int64? {
        var value = stamp
        if c.incremental {
            let (sum, overflow) = c.last.addingReportingOverflow(stamp)
            guard !overflow else { return nil }
            value = sum
            c.last = sum
        }
        // Signed: a clock that is not incremental may read before its snapshot.
        let units = value >= c.at ? Int64(exactly: value - c.at) : Int64(exactly: c.at - value).map { -$0 }
        guard let units, let multiplier = Int64(exactly: c.multiplier), let base = Int64(exactly: c.bootTime) else { return nil }
        let (ns, o1) = units.multipliedReportingOverflow(by: multiplier)
        let (time, o2) = base.addingReportingOverflow(ns)
        guard !o1, !o2, time >= 0 else { return nil }
        return time
    }
}
