import Measurement
import Records

/// What one run of one variant measured, from the main app's point of view (plus the share
/// extension's stale reads): the simulation and the live main process fill in the same fields,
/// so that `observations` defines every metric once for both modes.
public struct InvalidationTally: Sendable, Codable {
    public var durationNs: Int64 = 0
    /// Main-app reads, cache hits among them, and hits that returned an older version than the
    /// one committed in the database at that moment.
    public var reads = 0
    public var hits = 0
    public var staleReads = 0
    /// Database reads by the main app: misses, plus change-log queries (`change-log` only).
    public var storeReads = 0
    /// Store reads an exact invalidation would not have needed: misses on rows an evacuation
    /// dropped although nobody had changed them since, plus change-log queries.
    public var extraStoreReads = 0
    public var logQueries = 0
    public var shareReads = 0
    public var shareStaleReads = 0
    /// Write transactions committed by the other two processes.
    public var foreignCommits = 0
    /// Foreign commits whose invalidation never reached the main app's caches: their post was
    /// ignored (legacy pid race), never listened to (control), or never consumed.
    public var missedInvalidations = 0
    /// Posts delivered to the main app and the handler runs they caused (coalesced).
    public var postsDelivered = 0
    public var handlerRuns = 0
    /// Full cache evacuations in the main app.
    public var evacuations = 0
    public var targetedEvictions = 0
    public var uiRefreshes = 0
    /// Commit → no read can return the old value any more, per (foreign commit, row the main app
    /// had cached at an older version). Windows still open at the end are closed there and counted.
    public var staleness = DurationSamples()
    public var stalenessCensored = 0
    /// Foreign commit → the first UI refresh after it; commits never refreshed are closed at the end.
    public var uiRefreshLatency = DurationSamples()
    public var uiRefreshCensored = 0
    /// Live only: real time to serve one main-app read (change-log check, cache lookup, store
    /// read on a miss; not the audit read that counts stale reads).
    public var readCost = DurationSamples()
    /// The first read at which the main app's cache broke `InvalidationContract.keepsItsCache`
    /// (`MainCacheLedger`), carried with the counts so a live main process reports it whole.
    public var mainCacheViolation: ContractViolation?

    public init() {}

    /// The metrics, in a fixed order. A metric that does not exist for the run is omitted, never
    /// written as 0 (results/README.md): ratios without a denominator (no reads, no handler run —
    /// the control never listens) and percentiles without a sample.
    public var observations: [Observation] {
        let seconds = Double(durationNs) / 1e9
        func ms(_ ns: Int64) -> Double { Double(ns) / 1e6 }
        var out = [Observation("stale_reads", Double(staleReads), "reads")]
        if reads > 0 { out.append(Observation("stale_read_pct", 100 * Double(staleReads) / Double(reads), "%")) }
        if staleness.count > 0 {
            out.append(Observation("staleness_p50_ms", ms(staleness.percentile(50)), "ms"))
            out.append(Observation("staleness_p99_ms", ms(staleness.percentile(99)), "ms"))
            out.append(Observation("staleness_max_ms", ms(staleness.max), "ms"))
        }
        if uiRefreshLatency.count > 0 {
            out.append(Observation("ui_refresh_latency_p99_ms", ms(uiRefreshLatency.percentile(99)), "ms"))
        }
        if seconds > 0 { out.append(Observation("evacuations_per_s", Double(evacuations) / seconds, "1/s")) }
        out.append(Observation("missed_invalidations", Double(missedInvalidations), "commits"))
        if handlerRuns > 0 { out.append(Observation("coalescing_ratio", Double(postsDelivered) / Double(handlerRuns), "posts/run")) }
        if reads > 0 { out.append(Observation("hit_ratio", Double(hits) / Double(reads), "ratio")) }
        out += [
            Observation("extra_store_reads", Double(extraStoreReads), "reads"),
            Observation("reads", Double(reads), "reads"),
            Observation("store_reads", Double(storeReads), "reads"),
            Observation("foreign_commits", Double(foreignCommits), "commits"),
            Observation("handler_runs", Double(handlerRuns), "runs"),
            Observation("ui_refreshes", Double(uiRefreshes), "refreshes"),
            Observation("share_stale_reads", Double(shareStaleReads), "reads"),
        ]
        if shareReads > 0 {
            out.append(Observation("share_stale_read_pct", 100 * Double(shareStaleReads) / Double(shareReads), "%"))
        }
        if readCost.count > 0 {
            out.append(Observation("read_cost_p50_us", Double(readCost.percentile(50)) / 1e3, "us"))
            out.append(Observation("read_cost_p99_us", Double(readCost.percentile(99)) / 1e3, "us"))
        }
        out += [
            Observation("staleness_censored", Double(stalenessCensored), "windows"),
            Observation("ui_refresh_censored", Double(uiRefreshCensored), "commits"),
        ]
        return out
    }
}

/// Durations in integer nanoseconds with exact nearest-rank percentiles (the runs are small,
/// and exact values keep the gate's deterministic comparison exact).
public struct DurationSamples: Sendable, Codable {
    public private(set) var values: [Int64] = []

    public init() {}

    public mutating func record(_ ns: Int64) { values.append(Swift.max(0, ns)) }

    public var count: Int { values.count }
    public var max: Int64 { values.max() ?? 0 }

    /// Nearest-rank percentile (0…100); 0 when empty.
    public func percentile(_ p: Double) -> Int64 {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }
}
