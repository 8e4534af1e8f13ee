import Measurement

extension CacheVariant {
    /// The suite's own variants, in `--list` order: one registration each, the same path a user's
    /// variant takes (`Suite.caches`).
    public static var builtIn: [CacheVariant] { [lru, signal2018, signal2021, nscacheCorelibs, fifo, random, s3fifo] }

    /// The reference: O(1) LRU, checked against an independent stack-distance simulation.
    static let lru = CacheVariant(
        info: VariantInfo(name: "lru", origin: .platform, summary: "O(1) LRU (hash map + doubly linked list): the reference"),
        checkedByStackDistance: true,
        sim: { c, _ in LinkedLRUCache(capacity: c) },
        live: { c, _ in LinkedLRUCache(capacity: c) }
    )

    static let signal2018 = signalGeneration(
        "signal-2018",
        "Signal 2018: dictionary + order array, O(n) get/set, no lock, cleared on memory warning",
        lifecycle: .signal2018,
        threading: .singleThreaded,
        ignoresNSESize: true,
        cost: .linearTime
    ) { c, _ in Signal2018Cache(capacity: c) }

    static let signal2021 = signalGeneration(
        "signal-2021",
        "Signal 2021: the same behind a lock, NSE size rule, cleared on memory warning and background",
        lifecycle: .signal2021,
        threading: .threadSafe,
        cost: .lockedLinearTime
    ) { c, _ in Signal2021Cache(capacity: c) }

    /// Models Foundation's class (the platform's), as it behaves on Linux.
    static let nscacheCorelibs = CacheVariant(
        info: VariantInfo(
            name: "nscache-corelibs",
            origin: .platform,
            summary: "Foundation's NSCache on Linux (evicts the newest entry once full: freezes on its first N keys)"
        ),
        threading: .threadSafe,
        cost: .locked,
        sim: { c, _ in CorelibsNSCacheModel(capacity: c) },
        live: { c, _ in FoundationNSCache(capacity: c) }
    )

    static let fifo = CacheVariant(
        name: "fifo",
        origin: .platform,
        summary: "FIFO eviction: a stand-in for Darwin's undocumented NSCache order",
        sim: { c, _ in FIFOCache(capacity: c) },
        live: { c, _ in FIFOCache(capacity: c) }
    )

    static let random = CacheVariant(
        name: "random",
        origin: .platform,
        summary: "random eviction: another stand-in for Darwin's NSCache",
        sim: { c, seed in RandomEvictionCache(capacity: c, seed: seed) },
        live: { c, seed in RandomEvictionCache(capacity: c, seed: seed) }
    )

    /// Ours: S3-FIFO (SOSP 2023).
    static let s3fifo = CacheVariant(
        name: "s3-fifo",
        origin: .ours,
        summary: "ours: S3-FIFO (Yang et al., SOSP 2023), small/main/ghost FIFO queues",
        sim: { c, _ in S3FIFOCache(capacity: c) },
        live: { c, _ in S3FIFOCache(capacity: c) }
    )

    /// A generation of Signal's cache: stepped on the O(1) LRU in the simulation, which keeps
    /// exactly the same entries (CachingTests replays traces on both and compares every access);
    /// its O(n) cost enters through `OperationCostModel`, and live mode runs the real O(n) code.
    private static func signalGeneration<Live: CountBoundedCache<Int, CachedValue>>(
        _ name: String,
        _ summary: String,
        lifecycle: LifecycleRule,
        threading: LiveThreading,
        ignoresNSESize: Bool = false,
        cost: OperationCostModel.Shape,
        live: @escaping @Sendable (_ capacity: Int, _ seed: UInt64) -> Live
    ) -> CacheVariant {
        CacheVariant(
            info: VariantInfo(name: name, origin: .signal, summary: summary),
            lifecycle: lifecycle,
            threading: threading,
            ignoresNSESize: ignoresNSESize,
            cost: cost,
            sim: { c, _ in LinkedLRUCache(capacity: c) },
            live: live
        )
    }
}
