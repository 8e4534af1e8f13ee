/// What a live cell measures on the real implementation.
public enum LiveOperation: String, CaseIterable, Sendable {
    /// `get` of keys that are held (every call a hit), from `threads` threads: `get_ns`, and
    /// `allocs_per_op` single-threaded under jemalloc.
    case get
    /// `set` of keys that are not held (every call inserts and evicts), from `threads` threads:
    /// `set_ns`, and `allocs_per_op` single-threaded under jemalloc.
    case set
    /// `clear()` of a cache filled to its capacity: `clear_us`.
    case clear
    /// Filling an empty cache to its capacity: `bytes_per_entry` under jemalloc.
    case fill

    var summary: String {
        switch self {
        case .get: "live: get of held keys (hits), 1-16 threads: get_ns, allocs_per_op"
        case .set: "live: set of new keys (insert + evict), 1-16 threads: set_ns, allocs_per_op"
        case .clear: "live: clear() of a full cache: clear_us against capacity"
        case .fill: "live: fill an empty cache to capacity: bytes_per_entry (jemalloc)"
        }
    }
}
