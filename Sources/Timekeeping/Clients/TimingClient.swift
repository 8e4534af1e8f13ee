import Records
import Simulation
import Timelines

/// A piece of application code that decides things from clock readings: the subject of the
/// benchmark, built once per clock source.
///
/// A client is a state machine over readings of its own clock. The harness (sim or live) feeds it
/// its workload in true-time order and wakes it when its clock reaches the reading it asked for,
/// the way the kernel expires an absolute timer on that clock. True time is passed in only so the
/// client can record *when* things happened for scoring; its decisions use its clock alone.
///
/// **Contract** (`TimingClientContract`, checked on every run, sim and live): a wake-up moves or
/// clears the deadline it answered; a client asking for the same wake-up 100,000 times in a row
/// (1,000 live) fails its run rather than having it cut short or scored.
public protocol TimingClient {
    associatedtype Clock: ClockSource
    associatedtype Event: Sendable

    static var kind: ClientKind { get }
    init(clock: Clock, parameters: ClientParameters)

    /// The workload in true time, the same for every clock source (it depends on the plan only).
    static func workload(_ plan: WorkloadPlan) -> [Timed<Event>]

    mutating func handle(_ event: Event, trueTime: Int64)
    /// The reading of the client's clock at which it wants to be woken, if any.
    var wakeDeadline: Int64? { get }
    /// The true time at which it wants to be woken whatever its clock reads, if any: a display
    /// link is paced by the display's vsync, not by the clock the client reads. A wake due inside
    /// a suspend comes at the resume. Nil unless a client has such a timer.
    var wakeAtTrueTime: Int64? { get }
    mutating func wake(trueTime: Int64)

    /// What went wrong and by how much, against the truth.
    func observations(_ context: ScoringContext) -> [Observation]

    /// Keeps, from now on, what `trace(_:)` needs (`--perfetto`, `--events`). Off unless asked, so
    /// a run that records nothing does exactly the work it did before.
    mutating func recordTrace()
    /// What the client did, in true time, on its own track (named for the client): called after
    /// the run, and only when it recorded. See `ClockTrace` for the tracks every client shares.
    func trace(_ context: ScoringContext) -> [TraceEvent]
}

extension TimingClient {
    public var wakeAtTrueTime: Int64? { nil }
    public mutating func recordTrace() {}
    public func trace(_ context: ScoringContext) -> [TraceEvent] { [] }
}

/// A workload event at a true time (nanoseconds since the start of the run).
public struct Timed<Event: Sendable>: Sendable {
    public var time: Int64
    public var event: Event
    public init(_ time: Int64, _ event: Event) {
        self.time = time
        self.event = event
    }
}

/// The timing clients, named as in the `client` factor column.
public enum ClientKind: String, CaseIterable, Hashable, Sendable, Codable {
    case durationMeter = "duration-meter"
    case timeout
    case rateLimiter = "rate-limiter"
    /// Signal's `DebouncedEvent` lastOnly (fires interval after the first request).
    case debounceSignal = "debounce-signal"
    /// The article's lastOnly: a re-arming trailing debounce (not Signal's code).
    case debounceArticle = "debounce-article"
    case ttlCache = "ttl-cache"
    case callDuration = "call-duration"
    case adaptiveGate = "adaptive-gate"

    public var name: String { rawValue }

    /// Seeds each client's workload from its own stream, so adding a client shifts no other. The
    /// numbers are fixed, not positions: both debounce clients share the stream the single
    /// `debounce` client had (103), so they see the same requests and no other client moved.
    var stream: UInt64 {
        switch self {
        case .durationMeter: 100
        case .timeout: 101
        case .rateLimiter: 102
        case .debounceSignal, .debounceArticle: DebounceWorkload.stream
        case .ttlCache: 104
        case .callDuration: 105
        case .adaptiveGate: 106
        }
    }

    public var summary: String {
        switch self {
        case .durationMeter: "times jobs of known length: end − start"
        case .timeout: "a deadline: fires when the clock reaches start + timeout"
        case .rateLimiter: "a token bucket refilled by elapsed clock time"
        case .debounceSignal:
            "signal: DebouncedEvent lastOnly as Signal's code does it: fires interval after the first request, ignores requests while enqueued"
        case .debounceArticle: "article: lastOnly as the article describes it: every request re-arms the timer (trailing debounce)"
        case .ttlCache: "cache entries valid until insert time + TTL, checked on every lookup"
        case .callDuration: "an in-call timer showing now − call start every tick"
        case .adaptiveGate: "Signal's adaptive UI-update gate (Date()-timed): publish if abs(now − last publish) ≥ target"
        }
    }
}

/// Everything that scores a run needs to know about the truth.
public struct ScoringContext: Sendable {
    /// Suspended stretches of true time: a process cannot act inside them.
    public var suspensions: [Range<Int64>]
    /// The last true time the harness looked at; anything still pending never happened.
    public var horizon: Int64
    public var tolerance: Int64

    public init(suspensions: [Range<Int64>], horizon: Int64, tolerance: Int64) {
        self.suspensions = suspensions
        self.horizon = horizon
        self.tolerance = tolerance
    }

    /// The true time in `[from, to)` that the machine was awake: a frozen process can do nothing,
    /// whichever clock it reads.
    public func awakeTime(from: Int64, to: Int64) -> Int64 {
        var awake = to - from
        var i = suspensions.firstIndex(endingAfter: from)
        while i < suspensions.count, suspensions[i].lowerBound < to {
            awake -= min(to, suspensions[i].upperBound) - max(from, suspensions[i].lowerBound)
            i += 1
        }
        return awake
    }

    /// `t`, or the end of the suspend it falls in: the earliest a process can act at or after `t`.
    public func resume(_ t: Int64) -> Int64 { suspensions.suspension(containing: t)?.upperBound ?? t }

    /// How far `fired` is from the ideal true time `ideal`, which moves to the resume when it
    /// falls inside a suspend; firing within tolerance of `ideal` itself (just before the machine
    /// slept) counts as on time.
    public func error(fired: Int64, ideal: Int64) -> Int64 {
        abs(fired - ideal) <= tolerance ? fired - ideal : fired - resume(ideal)
    }
}

/// When and how much work the clients get: the awake windows of the scenario and a seed.
public struct WorkloadPlan: Sendable {
    public var windows: [Range<Int64>] { didSet { ends = Self.cumulativeEnds(windows) } }
    /// Running totals of the windows' lengths: `uniformTime` bisects them (a skew file with
    /// 100 000 suspends cuts the windows into as many pieces).
    private var ends: [Int64]
    public var seed: UInt64
    public var parameters: ClientParameters
    public var suspensions: [Range<Int64>]

    public init(windows: [Range<Int64>], seed: UInt64, parameters: ClientParameters, suspensions: [Range<Int64>] = []) {
        self.windows = windows
        self.ends = Self.cumulativeEnds(windows)
        self.seed = seed
        self.parameters = parameters
        self.suspensions = suspensions
    }

    public func generator(for client: ClientKind) -> SeededGenerator { .stream(client.stream, of: seed) }
    func generator(stream: UInt64) -> SeededGenerator { .stream(stream, of: seed) }

    static func cumulativeEnds(_ windows: [Range<Int64>]) -> [Int64] {
        var total: Int64 = 0
        return windows.map { w in
            total += w.upperBound - w.lowerBound
            return total
        }
    }

    var totalLength: Int64 { ends.last ?? 0 }

    /// A true time uniformly distributed over the windows.
    func uniformTime(_ rng: inout SeededGenerator) -> Int64 {
        let offset = Int64(rng.nextUnit() * Double(totalLength))
        // The first window whose running total passes the offset.
        var lo = 0, hi = ends.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ends[mid] <= offset { lo = mid + 1 } else { hi = mid }
        }
        guard lo < windows.count else { return windows.last.map { $0.upperBound - 1 } ?? 0 }
        return windows[lo].upperBound - (ends[lo] - offset)
    }

    /// Poisson arrival times at `rate` per second inside every window.
    func poisson(rate: Double, _ rng: inout SeededGenerator) -> [Int64] {
        var out: [Int64] = []
        for w in windows {
            var t = Double(w.lowerBound)
            while true {
                t += -DeterministicMath.log(rng.nextOpenUnit()) / rate * 1e9
                guard t < Double(w.upperBound) else { break }
                out.append(Int64(t))
            }
        }
        return out
    }

    /// Whether the process is frozen at true time `t`.
    func isSuspended(_ t: Int64) -> Bool { suspensions.suspension(containing: t) != nil }

    /// `t`, or the end of the suspend it falls in.
    func resume(_ t: Int64) -> Int64 { suspensions.suspension(containing: t)?.upperBound ?? t }
}

/// Sorts a workload by time; simultaneous events keep the order they were generated in.
func sortedWorkload<E>(_ events: [Timed<E>]) -> [Timed<E>] {
    events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
}

@inline(__always) func nanoseconds(_ seconds: Double) -> Int64 { Int64(ExactRounding.nearest(seconds * 1e9)) }
