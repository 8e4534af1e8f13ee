import Measurement
import Records
import Simulation
import Timelines

/// What one item measured in virtual time (every value defined in docs/bench-group.md).
public struct FanOutSimResult: Sendable, Codable, Hashable, FlowMetrics {
    public var flows: Int
    public var flowsFailed = 0
    public var latencyP50Ns: Int64 = 0
    public var latencyP99Ns: Int64 = 0
    public var latencyMaxNs: Int64 = 0
    /// Call copies sent (hedges included), over all flows.
    public var callsTotal = 0
    public var cancelledCalls = 0
    public var threadsInUsePeak = 0
    public var threadsBlockedPeak = 0
    public var blockedThreadNs: Int64 = 0
    public var mainBlockedNs: Int64 = 0
    public var mainBlockedMaxNs: Int64 = 0
    public var frames = 0
    public var missedFrames = 0
    public var wastedNs: Int64 = 0
    /// The timeline, when asked for (empty otherwise).
    public var trace: [TraceEvent] = []
    /// The idle main thread's frames in the timeline, as runs among `trace`'s events (empty unless
    /// asked for); `timeline` is both together.
    public var frameRuns: [SliceRun] = []
    /// The first broken rule of `FanOutContract`, which fails the item.
    public var violation: ContractViolation?

    /// The whole timeline: `trace` with the frames of `frameRuns` in place.
    public var timeline: [TraceEvent] {
        ItemTrace(scenario: "", variant: "", mode: "", seed: 0, repetition: 0, events: trace, runs: frameRuns).allEvents
    }

    init(flows: Int) { self.flows = flows }

    mutating func record(_ flow: FlowExecution.Result) {
        if flow.failed { flowsFailed += 1 }
        cancelledCalls += flow.calls.filter { $0.how == .cancelled }.count
        wastedNs += flow.wasted
    }

    /// Peaks of occupied and of blocked worker threads, and blocked thread-time.
    mutating func applyThreads(_ spans: [FlowExecution.ThreadSpan]) {
        threadsInUsePeak = Self.sweep(spans).map(\.1).max() ?? 0
        let blocked = spans.filter(\.blocked)
        threadsBlockedPeak = Self.sweep(blocked).map(\.1).max() ?? 0
        blockedThreadNs = blocked.reduce(0) { $0 + ($1.end - $1.start).nanoseconds }
    }

    /// How many spans are open after each change (an end before a start at the same instant).
    static func sweep(_ spans: [FlowExecution.ThreadSpan]) -> [(SimInstant, Int)] {
        var edges: [(SimInstant, Int)] = []
        for s in spans where s.end > s.start {
            edges.append((s.start, 1))
            edges.append((s.end, -1))
        }
        edges.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var out: [(SimInstant, Int)] = []
        var n = 0
        for (t, d) in edges {
            n += d
            if let last = out.last, last.0 == t { out[out.count - 1].1 = n } else { out.append((t, n)) }
        }
        return out
    }

    /// The metrics, in CSV order.
    public var observations: [Observation] { flowObservations(missedFrames: missedFrames) }
}
