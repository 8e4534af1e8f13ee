import CLockShim

/// jemalloc's own allocation statistics, read through `mallctl` found at run time.
///
/// Bytes come from the per-thread counter `thread.allocated`, read by each worker at the start and
/// end of its measured window, so they include nothing but that worker's operations. jemalloc has no
/// per-thread allocation *count*, so counts are process-wide: the arenas' `small.nrequests +
/// large.nrequests` (tcache requests included once each thread's cache statistics are merged, which
/// happens when the worker flushes its cache and exits), read by the coordinating thread, which
/// sleeps during the measurement.
package struct JemallocCounters: Sendable {
    /// jemalloc's version string, e.g. "5.3.0-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c".
    package let version: String

    /// The counters of the jemalloc serving this process's malloc, or nil when it is not jemalloc
    /// or was built without statistics.
    package static func active() -> JemallocCounters? {
        guard lks_jemalloc_active() != 0 else { return nil }
        var stats: Int32 = 0
        guard lks_mallctl_bool("config.stats", &stats) == 0, stats != 0 else { return nil }
        let version = lks_mallctl_string("version").map { String(cString: $0) } ?? "unknown"
        return JemallocCounters(version: version)
    }

    /// Bytes the calling thread has allocated since it started (monotonic).
    package func threadAllocatedBytes() -> UInt64 {
        var value: UInt64 = 0
        return lks_mallctl_u64("thread.allocated", &value) == 0 ? value : 0
    }

    /// Bytes the calling thread has freed since it started (monotonic); with `threadAllocatedBytes`
    /// it gives the bytes a thread's work left live (bench-cache's bytes per entry).
    package func threadDeallocatedBytes() -> UInt64 {
        var value: UInt64 = 0
        return lks_mallctl_u64("thread.deallocated", &value) == 0 ? value : 0
    }

    /// Merges the calling thread's cache statistics into its arena's.
    package func flushThreadCache() {
        _ = lks_mallctl_flush_thread_cache()
    }

    /// Allocation requests served so far by all arenas (refreshes the statistics first).
    package func processAllocationRequests() -> UInt64 {
        _ = lks_mallctl_refresh_stats()
        var small: UInt64 = 0
        var large: UInt64 = 0
        // 4096 is MALLCTL_ARENAS_ALL: all arenas merged.
        _ = lks_mallctl_u64("stats.arenas.4096.small.nrequests", &small)
        _ = lks_mallctl_u64("stats.arenas.4096.large.nrequests", &large)
        return small &+ large
    }
}
