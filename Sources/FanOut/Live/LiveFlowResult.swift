import Measurement
import Records
import Simulation
import Timelines

/// What a live item measured on the shared metrics (defined in docs/bench-group.md). Frames are not
/// counted live: the main stand-in is a serial queue without a display.
public struct LiveFlowResult: Sendable, Codable, FlowMetrics {
    public var flows: Int
    public var complete: Bool
    public var flowsFailed: Int
    public var latencyP50Ns: Int64
    public var latencyP99Ns: Int64
    public var latencyMaxNs: Int64
    public var callsTotal: Int
    public var cancelledCalls: Int
    public var threadsInUsePeak: Int
    public var threadsBlockedPeak: Int
    public var blockedThreadNs: Int64
    public var mainBlockedNs: Int64
    public var mainBlockedMaxNs: Int64
    public var wastedNs: Int64
    public var trace: [TraceEvent]
    /// The first broken rule of `FanOutContract`, which fails the item.
    public var violation: ContractViolation?

    init(recorder r: LiveRecorder, flows: Int, threadsInUsePeak: Int, complete: Bool, recordTrace: Bool) {
        self.flows = flows
        self.complete = complete
        flowsFailed = r.failed
        let sorted = r.latencies.sorted()
        latencyP50Ns = FanOutSimulation.nearestRank(sorted, 0.5)
        latencyP99Ns = FanOutSimulation.nearestRank(sorted, 0.99)
        latencyMaxNs = sorted.last ?? 0
        callsTotal = r.calls.count
        cancelledCalls = r.calls.filter { $0.record.how == .cancelled }.count
        self.threadsInUsePeak = threadsInUsePeak
        threadsBlockedPeak = FanOutSimResult.sweep(r.blockedSpans).map(\.1).max() ?? 0
        blockedThreadNs = r.blockedSpans.reduce(0) { $0 + ($1.end - $1.start).nanoseconds }
        mainBlockedNs = r.mainBlocked.reduce(0) { $0 + ($1.end - $1.start).nanoseconds }
        mainBlockedMaxNs = r.mainBlocked.map { ($0.end - $0.start).nanoseconds }.max() ?? 0
        wastedNs = r.wasted
        violation = r.contractViolation(complete: complete)
        trace = []
        if recordTrace {
            trace = r.mainBlocked.map {
                .slice("blocked in group.wait", on: "main", start: $0.start.nanoseconds, duration: ($0.end - $0.start).nanoseconds)
            }
            FanOutSimulation.threadTrace(r.blockedSpans, into: &trace)
            FanOutSimulation.callTrace(r.calls, into: &trace)
        }
    }

    /// The shared metrics, in CSV order (no frames live).
    public var observations: [Observation] { flowObservations(missedFrames: nil) }
}
