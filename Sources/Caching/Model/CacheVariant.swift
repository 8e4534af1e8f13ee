/// The variants bench-cache compares (names fixed by issue 14).
public enum CacheVariant: String, CaseIterable, Sendable {
    case lru
    case signal2018 = "signal-2018"
    case signal2021 = "signal-2021"
    case nscacheCorelibs = "nscache-corelibs"
    case fifo
    case random
    /// Ours: S3-FIFO (SOSP 2023).
    case s3fifo = "s3-fifo"

    public var summary: String {
        switch self {
        case .lru: "O(1) LRU (hash map + doubly linked list): the reference"
        case .signal2018: "Signal 2018: dictionary + order array, O(n) get/set, no lock, cleared on memory warning"
        case .signal2021: "Signal 2021: the same behind a lock, NSE size rule, cleared on memory warning and background"
        case .nscacheCorelibs: "Foundation's NSCache on Linux (evicts the newest entry once full: freezes on its first N keys)"
        case .fifo: "FIFO eviction: a stand-in for Darwin's undocumented NSCache order"
        case .random: "random eviction: another stand-in for Darwin's NSCache"
        case .s3fifo: "ours: S3-FIFO (Yang et al., SOSP 2023), small/main/ghost FIFO queues"
        }
    }

    /// Which lifecycle events clear it.
    public var lifecycle: LifecycleRule {
        switch self {
        case .signal2018: .signal2018
        case .signal2021: .signal2021
        default: .current
        }
    }

    /// Its size in `context`: 2018 predates the NSE size (every process gets maxSize); later
    /// generations use `isNSE ? nseMaxSize : maxSize`.
    public func capacity(for profile: CacheProfile, in context: ProcessContext) -> Int {
        if self == .signal2018 || context != .nse { return profile.maxSize }
        return profile.nseMaxSize
    }

    /// Whether get/set scan the whole order array (the 2018 and 2021 generations).
    public var isLinearTime: Bool { self == .signal2018 || self == .signal2021 }

    /// Whether the real implementation may be called from several threads.
    public var isThreadSafe: Bool { self != .signal2018 }

    /// The cache the simulation steps. The O(n) generations are stepped on the O(1) LRU, which
    /// keeps exactly the same entries (CachingTests replays traces on both and compares every
    /// access); their O(n) cost enters through `OperationCostModel`, and live mode runs the real
    /// O(n) code.
    func makeSimulated(capacity: Int, seed: UInt64) -> any CountBoundedCache<Int, Int> {
        switch self {
        case .lru, .signal2018, .signal2021: LinkedLRUCache<Int, Int>(capacity: capacity)
        case .nscacheCorelibs: CorelibsNSCacheModel<Int, Int>(capacity: capacity)
        case .fifo: FIFOCache<Int, Int>(capacity: capacity)
        case .random: RandomEvictionCache<Int, Int>(capacity: capacity, seed: seed)
        case .s3fifo: S3FIFOCache<Int, Int>(capacity: capacity)
        }
    }

    /// The real implementation for live mode, shareable between threads where the variant is
    /// (single-threaded ones behind `LockedCache`; signal-2018 bare, as Signal shipped it).
    package func makeLive(capacity: Int, seed: UInt64) -> any CountBoundedCache<Int, CachedValue> {
        switch self {
        case .lru: LockedCache(LinkedLRUCache<Int, CachedValue>(capacity: capacity))
        case .signal2018: Signal2018Cache<Int, CachedValue>(capacity: capacity)
        case .signal2021: Signal2021Cache<Int, CachedValue>(capacity: capacity)
        case .nscacheCorelibs: FoundationNSCache<CachedValue>(capacity: capacity)
        case .fifo: LockedCache(FIFOCache<Int, CachedValue>(capacity: capacity))
        case .random: LockedCache(RandomEvictionCache<Int, CachedValue>(capacity: capacity, seed: seed))
        case .s3fifo: LockedCache(S3FIFOCache<Int, CachedValue>(capacity: capacity))
        }
    }
}
