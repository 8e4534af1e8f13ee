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

    /// When it happened (nanoseconds since the start of the item's run).
    public var startNanoseconds: Int64
    /// A slice's length (0 for instants and counters).
    public var durationNanoseconds: Int64
    /// A counter's value; for slices and instants an optional magnitude (rows, bytes), else nil.
    public var value: Double?
    /// Declared after `value` so that it, `numberAt` and the names sit in the padding after
    /// `value`'s tag: 40 bytes an event (a default bench-cache run holds 7.6 million), and no
    /// reference among them, so an array of events is freed without reading it.
    public var kind: Kind
    /// Where a numbered name's number goes in `text` (UTF-8 offset).
    private(set) var numberAt: UInt16 = 0
    /// The actor's track, or a counter's name (`track`).
    var trackName: TraceName
    /// `name` as held: the name itself, or for a numbered name (`number` ≥ 0) its text without
    /// the number, which goes at UTF-8 offset `numberAt`.
    private(set) var textName: TraceName
    /// A numbered name's number (`NumberedName`), -1 for a name held whole.
    private(set) var number: Int32 = -1

    /// The actor (a thread track: `main`, `writer`, `thread 3`, `nse`) or, for a counter, the
    /// counter's name (`pending rows`).
    public var track: String {
        get { trackName.string }
        set { trackName = TraceName(newValue) }
    }

    /// `textName`'s text.
    var text: String { textName.string }

    /// What happened (`frame`, `publish`, `missed vsync`, `tap flow 12`); a counter's unit for
    /// counters. A numbered name is spelled out here, a new string each time: the encoder writes
    /// it from its parts (`text`, `number`).
    public var name: String {
        get { number < 0 ? text : NumberedName.spell(text, numberAt: Int(numberAt), number: Int(number)) }
        set {
            textName = TraceName(newValue)
            numberAt = 0
            number = -1
        }
    }

    public init(_ kind: Kind, track: TraceName, name: TraceName, start: Int64, duration: Int64 = 0, value: Double? = nil) {
        self.kind = kind
        self.trackName = track
        self.textName = name
        self.startNanoseconds = start
        self.durationNanoseconds = duration
        self.value = value
    }

    /// An event with names made at run time: each is looked up by its characters, under a lock.
    /// Where events are made by the thousand, give names made once (`TraceName`) or literals.
    @_disfavoredOverload
    public init(_ kind: Kind, track: String, name: String, start: Int64, duration: Int64 = 0, value: Double? = nil) {
        self.init(kind, track: TraceName(track), name: TraceName(name), start: start, duration: duration, value: value)
    }

    /// An event named `name` with `number` in it, held as its parts (spelled out whole when the
    /// parts do not fit: a negative number, or a text that long).
    public init(_ kind: Kind, track: TraceName, name: NumberedName, _ number: Int, start: Int64, duration: Int64 = 0, value: Double? = nil)
    {
        self.init(kind, track: track, name: name.textName, start: start, duration: duration, value: value)
        if number >= 0, number <= Int(Int32.max), name.numberAt <= Int(UInt16.max) {
            self.numberAt = UInt16(name.numberAt)
            self.number = Int32(number)
        } else {
            self.textName = TraceName(name(number))
        }
    }

    /// `a == b` as the names read: an event with a numbered name equals one with that name whole.
    public static func == (a: TraceEvent, b: TraceEvent) -> Bool {
        a.kind == b.kind && a.startNanoseconds == b.startNanoseconds && a.durationNanoseconds == b.durationNanoseconds
            && a.value == b.value && a.trackName == b.trackName
            && (a.number < 0 && b.number < 0 ? a.textName == b.textName : a.name == b.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(trackName)
        hasher.combine(name)
        hasher.combine(startNanoseconds)
        hasher.combine(durationNanoseconds)
        hasher.combine(value)
    }

    /// The keys and values the synthesized coding wrote (`name` whole).
    enum CodingKeys: String, CodingKey {
        case track, name, startNanoseconds, durationNanoseconds, value, kind
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try c.decode(Kind.self, forKey: .kind),
            track: try c.decode(String.self, forKey: .track),
            name: try c.decode(String.self, forKey: .name),
            start: try c.decode(Int64.self, forKey: .startNanoseconds),
            duration: try c.decode(Int64.self, forKey: .durationNanoseconds),
            value: try c.decodeIfPresent(Double.self, forKey: .value)
        )
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(track, forKey: .track)
        try c.encode(name, forKey: .name)
        try c.encode(startNanoseconds, forKey: .startNanoseconds)
        try c.encode(durationNanoseconds, forKey: .durationNanoseconds)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encode(kind, forKey: .kind)
    }

    public static func slice(_ name: TraceName, on track: TraceName, start: Int64, duration: Int64, value: Double? = nil) -> TraceEvent {
        TraceEvent(.slice, track: track, name: name, start: start, duration: max(0, duration), value: value)
    }

    /// A slice named `name` with `number` in it (`tap flow 12`), held as its parts: no string
    /// made per slice.
    public static func slice(_ name: NumberedName, _ number: Int, on track: TraceName, start: Int64, duration: Int64) -> TraceEvent {
        TraceEvent(.slice, track: track, name: name, number, start: start, duration: max(0, duration))
    }

    public static func instant(_ name: TraceName, on track: TraceName, at time: Int64, value: Double? = nil) -> TraceEvent {
        TraceEvent(.instant, track: track, name: name, start: time, value: value)
    }

    public static func counter(_ track: TraceName, unit: TraceName, at time: Int64, value: Double) -> TraceEvent {
        TraceEvent(.counter, track: track, name: unit, start: time, value: value)
    }

    /// `slice` with names made at run time (see `init(_:track:name:start:duration:value:)`).
    @_disfavoredOverload
    public static func slice(_ name: String, on track: String, start: Int64, duration: Int64, value: Double? = nil) -> TraceEvent {
        .slice(TraceName(name), on: TraceName(track), start: start, duration: duration, value: value)
    }

    @_disfavoredOverload
    public static func slice(_ name: NumberedName, _ number: Int, on track: String, start: Int64, duration: Int64) -> TraceEvent {
        .slice(name, number, on: TraceName(track), start: start, duration: duration)
    }

    @_disfavoredOverload
    public static func instant(_ name: String, on track: String, at time: Int64, value: Double? = nil) -> TraceEvent {
        .instant(TraceName(name), on: TraceName(track), at: time, value: value)
    }

    @_disfavoredOverload
    public static func counter(_ track: String, unit: String, at time: Int64, value: Double) -> TraceEvent {
        .counter(TraceName(track), unit: TraceName(unit), at: time, value: value)
    }
}

/// Slices of one name on one track that repeat at a fixed period: `count` slices, the `k`-th from
/// `start + k × period` for `duration`. The same timeline as those slices one by one, held in one
/// value: bench-group's idle main thread draws a frame every 16.7 ms, 88 % of its ~5.6 M events,
/// and made, kept, ordered and freed one `TraceEvent` each, they cost more than the run they
/// trace. `PerfettoTrace` writes their packets straight from here.
public struct SliceRun: Sendable, Hashable, Codable {
    /// The slices' name and track, held as names (`TraceName`) as an event holds them.
    var sliceName: TraceName
    var trackName: TraceName
    public var start: Int64
    public var period: Int64
    public var duration: Int64
    public var count: Int
    /// Where its slices come among the item's `events` in the order they were made: just before
    /// `events[position]` (after all of them when it is `events.count`), and after any earlier run
    /// with the same position. Ties in time are broken by that order, as for any events.
    public var position: Int

    public var name: String {
        get { sliceName.string }
        set { sliceName = TraceName(newValue) }
    }

    public var track: String {
        get { trackName.string }
        set { trackName = TraceName(newValue) }
    }

    public init(_ name: TraceName, on track: TraceName, start: Int64, period: Int64, duration: Int64, count: Int, position: Int) {
        self.sliceName = name
        self.trackName = track
        self.start = start
        self.period = period
        self.duration = max(0, duration)
        self.count = max(0, count)  // a negative count would never end the encoder's walk of the run
        self.position = position
    }

    @_disfavoredOverload
    public init(_ name: String, on track: String, start: Int64, period: Int64, duration: Int64, count: Int, position: Int) {
        self.init(TraceName(name), on: TraceName(track), start: start, period: period, duration: duration, count: count, position: position)
    }

    /// Its `k`-th slice.
    public func slice(_ k: Int) -> TraceEvent {
        .slice(sliceName, on: trackName, start: start + Int64(k) * period, duration: duration)
    }

    /// Coded under the keys it had when the names were strings (a name codes as its text).
    enum CodingKeys: String, CodingKey {
        case sliceName = "name"
        case trackName = "track"
        case start, period, duration, count, position
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
