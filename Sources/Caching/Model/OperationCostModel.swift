import Simulation

/// The virtual cost of one cache call, by variant and current size.
///
/// O(1) variants: a fixed cost per call. The O(n) generations (signal-2018, signal-2021) rebuild
/// their order array with `filter` + `append` on every hit and every set: `perEntry` for each
/// element held, plus an array allocation. `perEntry` is what live mode measures for the real
/// classes in a release build on this machine (80–125 ns of CPU per entry: the generic `filter`
/// is not specialized and allocates once per element; docs/bench-cache.md). The model's ranking
/// by hit ratio does not depend on any of these constants.
public struct OperationCostModel: Sendable {
    /// A dictionary probe and, for LRU, the list relink.
    public var fixed: SimDuration = .nanoseconds(100)
    /// The array allocation of `filter`.
    public var arrayAllocation: SimDuration = .nanoseconds(60)
    /// One element of the order array compared and copied by `filter` (unspecialized, as measured).
    public var perEntry: SimDuration = .nanoseconds(100)
    /// An uncontended lock round trip (signal-2021, NSCache).
    public var lock: SimDuration = .nanoseconds(20)

    public init() {}

    /// What a variant's calls cost in the model: a lock round trip or not, O(n) or O(1).
    struct Shape: Sendable, Hashable {
        var locked = false
        /// get/set rebuild the whole order array (the 2018 and 2021 generations).
        var linearTime = false

        /// An O(1) design without a lock of its own: every user variant, lru, fifo, random, s3-fifo.
        static let constant = Shape()
        static let locked = Shape(locked: true)
        static let linearTime = Shape(linearTime: true)
        static let lockedLinearTime = Shape(locked: true, linearTime: true)
    }

    /// Cost of a `get` that hits (`hit`) or misses, or of a `set`, with `count` entries held.
    func cost(_ shape: Shape, count: Int, touchesOrder: Bool) -> SimDuration {
        var c = fixed
        if shape.locked { c = c + lock }
        if shape.linearTime, touchesOrder {
            c = c + arrayAllocation + SimDuration(nanoseconds: perEntry.nanoseconds * Int64(count))
        }
        return c
    }
}
