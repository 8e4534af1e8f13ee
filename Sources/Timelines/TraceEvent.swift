/// One thing that happened on an item's timeline, typed: what `--perfetto` draws and `--events`
/// lists, for every workload.
///
/// A workload turns its typed samples into these after the run (never on a measured path): a
/// `slice` is something that took time on an actor's track (a frame, a publish, a lock hold, a
/// save), an `instant` something that happened at a point (a missed vsync, a stale read, a kill),
/// a `counter` the value of some state from that time on (pending rows, cache occupancy). Times are
/// nanoseconds since the start of the item's run: virtual time in sim, the real clock live.
public struct TraceEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case slice, instant, counter
        /// A stretch of idle frames drawn as one slice, its `value` the count of frames
        /// (`ItemTrace.collapsingIdleFrames()`): what `--perfetto` draws, never a workload's event.
        case idle
    }

    /// The actor (a thread track: `main`, `writer`, `thread 3`, `nse`) or, for a counter, the
    /// counter's name (`pending rows`).
    public var track: String
    /// What happened (`frame`, `publish`, `missed vsync`); a counter's unit for counters.
    public var name: String
    public var startNanoseconds: Int64
    /// A slice's length (0 for instants and counters).
    public var durationNanoseconds: Int64
    /// A counter's value; for slices and instants an optional magnitude (rows, bytes), else nil.
    public var value: Double?
    /// Declared last so that it sits in the padding after `value`'s tag: 64 bytes an event
    /// instead of 72 (a default bench-clock item holds about a million).
    public var kind: Kind

    public init(_ kind: Kind, track: String, name: String, start: Int64, duration: Int64 = 0, value: Double? = nil) {
        self.kind = kind
        self.track = track
        self.name = name
        self.startNanoseconds = start
        self.durationNanoseconds = duration
        self.value = value
    }

    public static func slice(_ name: String, on track: String, start: Int64, duration: Int64, value: Double? = nil) -> TraceEvent {
        TraceEvent(.slice, track: track, name: name, start: start, duration: max(0, duration), value: value)
    }

    public static func instant(_ name: String, on track: String, at time: Int64, value: Double? = nil) -> TraceEvent {
        TraceEvent(.instant, track: track, name: name, start: time, value: value)
    }

    public static func counter(_ track: String, unit: String, at time: Int64, value: Double) -> TraceEvent {
        TraceEvent(.counter, track: track, name: unit, start: time, value: value)
    }
}

/// Slices of one name on one track that repeat at a fixed period: `count` slices, the `k`-th from
/// `start + k × period` for `duration`. The same timeline as those slices one by one, held in one
/// value: bench-group's idle main thread draws a frame every 16.7 ms, 88 % of its ~5.6 M events,
/// and made, kept, ordered and freed one `TraceEvent` each, they cost more than the run they
/// trace. `PerfettoTrace` writes their packets straight from here.
public struct SliceRun: Sendable, Hashable, Codable {
    public var name: String
    public var track: String
    public var start: Int64
    public var period: Int64
    public var duration: Int64
    public var count: Int
    /// Where its slices come among the item's `events` in the order they were made: just before
    /// `events[position]` (after all of them when it is `events.count`), and after any earlier run
    /// with the same position. Ties in time are broken by that order, as for any events.
    public var position: Int

    public init(_ name: String, on track: String, start: Int64, period: Int64, duration: Int64, count: Int, position: Int) {
        self.name = name
        self.track = track
        self.start = start
        self.period = period
        self.duration = max(0, duration)
        self.count = max(0, count)  // a negative count would never end the encoder's walk of the run
        self.position = position
    }

    /// Its `k`-th slice.
    public func slice(_ k: Int) -> TraceEvent {
        .slice(name, on: track, start: start + Int64(k) * period, duration: duration)
    }
}

/// One item's timeline: its label (the process track in Perfetto) and its events.
public struct ItemTrace: Sendable {
    public var scenario: String
    public var variant: String
    public var mode: String
    public var seed: UInt64
    public var repetition: Int
    public var events: [TraceEvent]
    /// Periodic slices held as runs (`SliceRun`), each among `events` at its position; most items
    /// have none. `allEvents` is the timeline with them in place.
    public var runs: [SliceRun]
    /// What else tells this item from its neighbours in the process track's name (bench-clock's
    /// client: one item runs each client on every source); empty for most workloads.
    public var detail: String

    public init(
        scenario: String,
        variant: String,
        mode: String,
        seed: UInt64,
        repetition: Int,
        events: [TraceEvent],
        runs: [SliceRun] = [],
        detail: String = ""
    ) {
        self.scenario = scenario
        self.variant = variant
        self.mode = mode
        self.seed = seed
        self.repetition = repetition
        self.events = events
        self.runs = runs
        self.detail = detail
    }

    /// How many events the timeline holds: `events` and the slices of `runs`.
    public var eventCount: Int { runs.reduce(events.count) { $0 + $1.count } }

    /// Every event, the runs' slices in place, in the order they were made.
    public var allEvents: [TraceEvent] {
        guard !runs.isEmpty else { return events }
        var out: [TraceEvent] = []
        out.reserveCapacity(eventCount)
        var next = 0
        for r in runs.indices.sorted(by: { (runs[$0].position, $0) < (runs[$1].position, $1) }) {
            let run = runs[r]
            let position = min(max(run.position, next), events.count)
            out += events[next..<position]
            next = position
            for k in 0..<run.count { out.append(run.slice(k)) }
        }
        out += events[next...]
        return out
    }

    /// Puts the runs' slices among `events` (`allEvents`): what a cut or a window works on.
    public mutating func expandRuns() {
        guard !runs.isEmpty else { return }
        events = allEvents
        runs = []
    }

    /// `scenario variant [detail] mode seed S`: the process track's name.
    public var label: String {
        detail.isEmpty ? "\(scenario) \(variant) \(mode) seed \(seed)" : "\(scenario) \(variant) \(detail) \(mode) seed \(seed)"
    }

    /// The `--events` rows of this item.
    public var timelineRecords: [TimelineRecord] {
        allEvents.map { e in
            TimelineRecord(
                scenario: scenario,
                variant: variant,
                mode: mode,
                seed: seed,
                repetition: repetition,
                timeMs: Double(e.startNanoseconds) / 1e6,
                event: e.name,
                rows: 0,
                reset: false,
                costMs: Double(e.durationNanoseconds) / 1e6,
                frameLatenessMs: nil,
                track: e.track,
                kind: e.kind.rawValue,
                value: e.value
            )
        }
    }
}
