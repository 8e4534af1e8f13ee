import Records

/// What one repetition of one (cell, variant) measured, before it becomes result records.
///
/// Built by `ContentionRunner` (and tests) through the memberwise initializer: the counters a run
/// may not read default to 0, the jemalloc and probe values to nil.
package struct ContentionSample: Sendable, Hashable, Codable {
    /// Operations each worker completed, in thread order.
    package var threadOperations: [UInt64]
    /// From the earliest worker start to the latest worker end.
    package var elapsedNanoseconds: UInt64
    /// The final value the workers' own tallies predict, and the value actually found.
    package var expectedTotal: Int64
    package var observedTotal: Int64
    /// Summed over the workers, during the measured window (getrusage(RUSAGE_THREAD)).
    package var voluntarySwitches: UInt64 = 0
    package var involuntarySwitches: UInt64 = 0
    package var cpuNanoseconds: UInt64 = 0
    /// Under jemalloc: bytes the workers allocated, and process-wide allocation requests.
    package var allocatedBytes: UInt64?
    package var allocationRequests: UInt64?
    /// The co-scheduling probe run just before this repetition (nil when it did not run).
    package var coScheduledFraction: Double?
    package var pinFailures: Int = 0
    /// Each worker's sampled operations, in thread order (empty unless sampling), and the clock
    /// reading the timeline counts from (the earliest worker start).
    package var lockSamples: [[LockSample]] = []
    package var traceOrigin: UInt64 = 0

    package var totalOperations: UInt64 { threadOperations.reduce(0, &+) }

    /// |expected − observed|: 0 when no update was lost (a flag can also be over-cleared, hence
    /// the absolute value).
    package var lostUpdates: UInt64 { (observedTotal &- expectedTotal).magnitude }

    /// Wall time per operation of the whole team: elapsed / total operations.
    package var nanosecondsPerOperation: Double {
        totalOperations == 0 ? .nan : Double(elapsedNanoseconds) / Double(totalOperations)
    }

    package var operationsPerSecond: Double {
        elapsedNanoseconds == 0 ? .nan : Double(totalOperations) * 1e9 / Double(elapsedNanoseconds)
    }

    /// The metrics of this repetition, in the order they are written.
    package func observations() -> [Observation] {
        let shares = threadOperations.map { Double($0) }
        let ops = Double(totalOperations)
        var out = [
            Observation("ns_per_op", nanosecondsPerOperation, "ns"),
            Observation("ops_per_s", operationsPerSecond, "1/s"),
            Observation("operations", ops, "count"),
            Observation("elapsed_ms", Double(elapsedNanoseconds) / 1e6, "ms"),
            Observation("jain_fairness", Statistics.jainFairness(shares) ?? .nan, "ratio"),
            Observation("max_min_share_ratio", Statistics.maxMinRatio(shares) ?? .nan, "ratio"),
            Observation("lost_updates", Double(lostUpdates), "count"),
        ]
        // Per-thread resource usage (RUSAGE_THREAD) is Linux's: elsewhere these metrics are left
        // out rather than written as zeros.
        #if os(Linux)
        out += [
            Observation("voluntary_ctx_switches", Double(voluntarySwitches), "count"),
            Observation("involuntary_ctx_switches", Double(involuntarySwitches), "count"),
            Observation("cpu_time_ms", Double(cpuNanoseconds) / 1e6, "ms"),
            Observation("cpu_ns_per_op", ops > 0 ? Double(cpuNanoseconds) / ops : .nan, "ns"),
        ]
        #endif
        if let allocationRequests, ops > 0 {
            out.append(Observation("allocs_per_op", Double(allocationRequests) / ops, "count/op"))
        }
        if let allocatedBytes, ops > 0 {
            out.append(Observation("bytes_per_op", Double(allocatedBytes) / ops, "B/op"))
        }
        if let coScheduledFraction {
            out.append(Observation("co_scheduled_fraction", coScheduledFraction, "fraction"))
        }
        return out
    }
}
