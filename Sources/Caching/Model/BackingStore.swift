import Simulation

/// The slower store behind the cache: a model of one SQLite point read by primary key (GRDB,
/// decoding one record) on a phone.
///
/// Cost per read = `base` + an exponential tail with mean `tailMean`, drawn from the item's own
/// seeded stream: 50 µs + Exp(30 µs) by default, i.e. a mean of 80 µs — the order of a
/// warm-page-cache indexed lookup plus record decoding on a mid-range iPhone. The number is an
/// assumption of the model (documented in docs/bench-cache.md), not a measurement; every
/// latency metric scales with it, the hit ratios do not depend on it.
public struct BackingStore: Sendable {
    public var base: SimDuration = .microseconds(50)
    public var tailMean: SimDuration = .microseconds(30)

    public init() {}

    func readCost(_ generator: inout SeededGenerator) -> SimDuration {
        let u = generator.nextOpenUnit()
        let tail = -DeterministicMath.log(u) * Double(tailMean.nanoseconds)
        return base + SimDuration(nanoseconds: Int64(tail))
    }
}
