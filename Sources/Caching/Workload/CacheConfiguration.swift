import Records

/// bench-cache's own settings as plain values: what the command line resolved, before the
/// matrix is built. The executable fills it in; the workload validates combinations.
public struct CacheConfiguration: Sendable {
    public typealias Mode = RunMode

    public var mode: Mode = .sim
    /// Replay this CSV (header `key`) instead of the generated traces.
    public var tracePath: String?
    /// Process contexts (empty: all three).
    public var contexts: [String] = []
    /// Main-app sizes (empty: Signal's caller sizes in sim, 32/1024/4000 live: filling an O(n) generation to 16000 entries takes O(n²), tens of seconds per cell).
    public var capacities: [Int] = []
    /// Reads per generated trace (nil: 10000, 3000 with --quick).
    public var reads: Int?
    /// Live mode: thread counts (empty: 1, 4, 16).
    public var threads: [Int] = []
    /// Live mode: live operations (empty: all).
    public var operations: [String] = []
    /// Live mode: measured seconds per get/set cell (nil: 0.2, 0.05 with --quick).
    public var duration: Double?
    /// Every read's backing-store cost model.
    public var store = BackingStore()

    public init() {}
}
