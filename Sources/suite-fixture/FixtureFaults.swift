import BenchSuite
import Caching
import Foundation
import Measurement
import Simulation
import Throttling

// With `SUITE_FIXTURE_FAULTS` set: the bugs a stranger's code may have, for UserPackageFaultTests
// (each fault costs only its own items, no process outlives the run). They were a package of their
// own (Tests/Fixtures/FaultyVariants) whose `swift build` compiled PatternBench a second time, the
// largest part of `swift test` on a fresh clone; a user's package built against this
// checkout is CI's Examples/ step. The trap on the tenth commit
// (`traps-on-tenth`) and a variant that behaves (`every-third`) are main.swift's.

/// Never returns from its first commit, and spins rather than sleeps (a livelock burns a core).
struct Spins: UpdateThrottler {
    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        var x: UInt64 = 1
        while x != 0 { x = x &* 6_364_136_223_846_793_005 &+ 1 | 1 }
        return .none
    }
}

/// Evicts the oldest insertion: a cache that behaves, so a test can compare its results; or,
/// where `trapsOnGet`, one whose `get` traps on the first call.
final class InsertionOrderCache<Key: Hashable, Value>: CountBoundedCache {
    let capacity: Int
    let trapsOnGet: Bool
    private var values: [Key: Value] = [:]
    private var order: [Key] = []
    init(capacity: Int, trapsOnGet: Bool) {
        self.capacity = capacity
        self.trapsOnGet = trapsOnGet
    }
    var count: Int { values.count }
    func get(_ key: Key) -> Value? {
        precondition(!trapsOnGet, "suite-fixture: trapping-cache get traps")
        return values[key]
    }
    func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        if values.updateValue(value, forKey: key) == nil {
            order.append(key)
            if order.count > capacity { values[order.removeFirst()] = nil }
        }
    }
    func clear() {
        values = [:]
        order = []
    }
}

func registerFixtureFaults(_ suite: inout Suite) throws(BenchFailure) {
    guard ProcessInfo.processInfo.environment["SUITE_FIXTURE_FAULTS"] != nil else { return }
    try suite.throttlers.register(
        ThrottlerVariant(name: "spins", origin: .user, summary: "never returns from its first commit", isDefault: false) { _ in Spins() }
    )
    for (name, summary, traps) in [("insertion-order", "evicts the oldest insertion", false), ("trapping-cache", "get traps", true)] {
        try suite.caches.register(
            CacheVariant(
                name: name,
                origin: .user,
                summary: summary,
                sim: { capacity, _ in InsertionOrderCache(capacity: capacity, trapsOnGet: traps) },
                live: { capacity, _ in InsertionOrderCache(capacity: capacity, trapsOnGet: traps) }
            )
        )
    }
}
