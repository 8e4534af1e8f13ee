// faulty-bench: PatternBench's suite plus variants with the bugs a stranger's code may have.
import BenchSuite
import Caching
import Foundation
import Simulation
import Throttling

/// Publishes every other commit: a variant that behaves, so a test can see its rows written.
struct EveryOther: UpdateThrottler {
    var seen = 0

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        return seen % 2 == 0 ? ThrottleDecision(publish: .all) : .none
    }

    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        context.pendingCommits > 0 ? ThrottleDecision(publish: .all) : .none
    }
}

/// Traps on its tenth commit (an index out of range, a force-unwrap: any Swift trap).
struct TrapsOnTenth: UpdateThrottler {
    var seen = 0

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        precondition(seen < 10, "faulty-bench: traps-on-tenth traps")
        return ThrottleDecision(publish: .all)
    }
}

/// Never returns from its first commit, and spins rather than sleeps (a livelock burns a core).
struct Spins: UpdateThrottler {
    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        var x: UInt64 = 1
        while x != 0 { x = x &* 6_364_136_223_846_793_005 &+ 1 | 1 }
        return .none
    }
}

/// Evicts the oldest insertion; a cache that behaves, so a test can compare its results.
final class FIFOCache<Key: Hashable, Value>: CountBoundedCache {
    let capacity: Int
    private var values: [Key: Value] = [:]
    private var order: [Key] = []
    init(capacity: Int) { self.capacity = capacity }
    var count: Int { values.count }
    func get(_ key: Key) -> Value? { values[key] }
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

/// A cache whose `get` traps on the first call.
final class TrappingCache<Key: Hashable, Value>: CountBoundedCache {
    let capacity: Int
    init(capacity: Int) { self.capacity = capacity }
    var count: Int { 0 }
    func get(_ key: Key) -> Value? { fatalError("faulty-bench: trapping-cache get traps") }
    func set(_ key: Key, _ value: Value) {}
    func clear() {}
}

var suite = Suite()
do {
    try suite.throttlers.register(
        ThrottlerVariant(name: "every-other", origin: .user, summary: "publish every other commit") { _ in EveryOther() }
    )
    try suite.throttlers.register(
        ThrottlerVariant(name: "traps-on-tenth", origin: .user, summary: "traps on its tenth commit", isDefault: false) { _ in
            TrapsOnTenth()
        }
    )
    try suite.throttlers.register(
        ThrottlerVariant(name: "spins", origin: .user, summary: "never returns from its first commit", isDefault: false) { _ in Spins() }
    )
    try suite.caches.register(
        CacheVariant(
            name: "insertion-order",
            origin: .user,
            summary: "evicts the oldest insertion",
            sim: { capacity, _ in FIFOCache(capacity: capacity) },
            live: { capacity, _ in FIFOCache(capacity: capacity) }
        )
    )
    try suite.caches.register(
        CacheVariant(
            name: "trapping-cache",
            origin: .user,
            summary: "get traps",
            sim: { capacity, _ in TrappingCache(capacity: capacity) },
            live: { capacity, _ in TrappingCache(capacity: capacity) }
        )
    )
} catch {
    FileHandle.standardError.write(Data("faulty-bench: error: \(error.message)\n".utf8))
    exit(error.exitCode)
}
SuiteMain.run(suite)
