/// The process allocator a run uses: a controlled variable, recorded with the results.
package enum AllocatorChoice: String, CaseIterable, Sendable {
    /// glibc malloc: allocations are not counted (glibc has no per-thread counters).
    case system
    /// jemalloc, preloaded at process start; allocations counted from its own statistics.
    case jemalloc
}
