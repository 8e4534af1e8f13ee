import Records

/// The metrics a sim and a live item share (every one defined in docs/bench-group.md), so that both
/// write them under the same names, units and order, and the live-versus-sim table pairs them.
protocol FlowMetrics {
    var flows: Int { get }
    var flowsFailed: Int { get }
    var latencyP50Ns: Int64 { get }
    var latencyP99Ns: Int64 { get }
    var latencyMaxNs: Int64 { get }
    var callsTotal: Int { get }
    var cancelledCalls: Int { get }
    var threadsInUsePeak: Int { get }
    var threadsBlockedPeak: Int { get }
    var blockedThreadNs: Int64 { get }
    var mainBlockedNs: Int64 { get }
    var mainBlockedMaxNs: Int64 { get }
    var wastedNs: Int64 { get }
}

extension FlowMetrics {
    /// The metrics in CSV order; `missedFrames` only where frames are counted (virtual time: the
    /// live main stand-in has no display).
    func flowObservations(missedFrames: Int?) -> [Observation] {
        let n = Double(max(1, flows))
        func ms(_ ns: Int64) -> Double { Double(ns) / 1e6 }
        var out = [
            Observation("latency_p50_ms", ms(latencyP50Ns), "ms"),
            Observation("latency_p99_ms", ms(latencyP99Ns), "ms"),
            Observation("latency_max_ms", ms(latencyMaxNs), "ms"),
            Observation("flows_failed", Double(flowsFailed), "count"),
            Observation("calls_per_flow", Double(callsTotal) / n, "calls"),
            Observation("threads_in_use_peak", Double(threadsInUsePeak), "threads"),
            Observation("threads_blocked_peak", Double(threadsBlockedPeak), "threads"),
            Observation("blocked_thread_ms_per_flow", ms(blockedThreadNs) / n, "ms"),
            Observation("main_blocked_ms", ms(mainBlockedNs), "ms"),
            Observation("main_blocked_max_ms", ms(mainBlockedMaxNs), "ms"),
        ]
        if let missedFrames { out.append(Observation("missed_frames", Double(missedFrames), "frames")) }
        out += [
            Observation("wasted_work_ms", ms(wastedNs), "ms"),
            Observation("cancelled_calls", Double(cancelledCalls), "count"),
        ]
        return out
    }
}
