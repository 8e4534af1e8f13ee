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
    /// instead of 72 (a default bench-clock item holds about a million, issue 29).
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

/// One item's timeline: its label (the process track in Perfetto) and its events.
public struct ItemTrace: Sendable {
    public var scenario: String
    public var variant: String
    public var mode: String
    public var seed: UInt64
    public var repetition: Int
    public var events: [TraceEvent]
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
        detail: String = ""
    ) {
        self.scenario = scenario
        self.variant = variant
        self.mode = mode
        self.seed = seed
        self.repetition = repetition
        self.events = events
        self.detail = detail
    }

    /// `scenario variant [detail] mode seed S`: the process track's name.
    public var label: String {
        detail.isEmpty ? "\(scenario) \(variant) \(mode) seed \(seed)" : "\(scenario) \(variant) \(detail) \(mode) seed \(seed)"
    }

    /// The `--events` rows of this item.
    public var timelineRecords: [TimelineRecord] {
        events.map { e in
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
