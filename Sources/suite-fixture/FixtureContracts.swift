import BenchSuite
import Caching
import Foundation
import Measurement
import Readiness
import Simulation
import Throttling

// With `SUITE_FIXTURE_CONTRACTS` set: plausible nonsense a team's package may hold — variants that
// run to the end without a trap and would be ranked if nothing checked their role's contract
// (ContractBreakerTests). Each breaker has a twin that differs only by its fault and keeps the
// contract: the control that the check passes a variant that behaves.

/// Which rule of `CacheContract` a `ContractCache` breaks, if any.
enum CacheFault: Sendable { case none, neverEvictsAndMiscounts, forgetsEverySet }

/// A cache that evicts the oldest insertion; `fault` breaks one rule of `CacheContract`.
final class ContractCache<Key: Hashable, Value>: CountBoundedCache {
    let capacity: Int
    let fault: CacheFault
    private var values: [Key: Value] = [:]
    private var order: [Key] = []
    init(capacity: Int, fault: CacheFault) {
        self.capacity = max(0, capacity)
        self.fault = fault
    }
    var count: Int { fault == .neverEvictsAndMiscounts ? Int.min : values.count }
    func get(_ key: Key) -> Value? { values[key] }
    func set(_ key: Key, _ value: Value) {
        guard capacity > 0, fault != .forgetsEverySet, values.updateValue(value, forKey: key) == nil else { return }
        order.append(key)
        if order.count > capacity, fault != .neverEvictsAndMiscounts { values[order.removeFirst()] = nil }
    }
    func clear() {
        values = [:]
        order = []
    }
}

/// A throttler that publishes every third commit and, unless `losesTail`, what is older than
/// 100 ms when a frame completes; `partial` asks for `.upTo(rows: partial)` instead of `.all`;
/// `timerOffset` arms a timer that far from now on each commit (and publishes when it fires).
struct ContractThrottler: UpdateThrottler {
    var losesTail = false
    var partial: Int?
    var timerOffset: SimDuration?
    var seen = 0

    var publish: ThrottleDecision.Publish { partial.map { .upTo(rows: $0) } ?? .all }

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        let timer = timerOffset.map { ThrottleDecision.Timer.fire(at: context.now + $0) } ?? .unchanged
        return ThrottleDecision(publish: seen % 3 == 0 ? publish : .nothing, timer: timer)
    }

    mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision { ThrottleDecision(publish: publish) }

    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        guard !losesTail, context.pendingCommits > 0, let oldest = context.oldestPending, context.now - oldest > .milliseconds(100) else {
            return .none
        }
        return ThrottleDecision(publish: publish)
    }
}

/// Everything at ready, each block in a turn of its own; `dropsEarly` forgets every block
/// registered before ready (its drain is then 0 ms: nothing it never started counts).
final class ContractCoordinator: ReadinessPolicy, @unchecked Sendable {
    private let session: LaunchSession  // confined to the main executor
    private let dropsEarly: Bool
    private var ready = false, waiting: [ReadinessBlock] = []
    init(session: LaunchSession, dropsEarly: Bool) {
        self.session = session
        self.dropsEarly = dropsEarly
    }
    func register(_ b: ReadinessBlock) {
        if ready { session.run(b, ownTurn: false) } else if !dropsEarly { waiting.append(b) }
    }
    func registerOffMain(_ b: ReadinessBlock) { session.executor.async { [self] in register(b) } }
    func setAppReady() {
        ready = true
        session.markAppReady()
        for b in waiting { session.executor.async { [session] in session.run(b, ownTurn: true) } }
        waiting = []
    }
    func setUIReady() {}
}

func registerFixtureContractBreakers(_ suite: inout Suite) throws(BenchFailure) {
    guard ProcessInfo.processInfo.environment["SUITE_FIXTURE_CONTRACTS"] != nil else { return }
    let caches: [(String, String, CacheFault)] = [
        ("keeps-contract-cache", "evicts the oldest insertion", .none),
        ("miscounting-cache", "never evicts; count is Int.min", .neverEvictsAndMiscounts),
        ("forgetful-cache", "stores nothing", .forgetsEverySet),
    ]
    for (name, summary, fault) in caches {
        try suite.caches.register(
            CacheVariant(
                name: name,
                origin: .user,
                summary: summary,
                isDefault: false,
                sim: { capacity, _ in ContractCache<Int, Int>(capacity: capacity, fault: fault) },
                live: { capacity, _ in ContractCache<Int, CachedValue>(capacity: capacity, fault: fault) }
            )
        )
    }
    let throttlers: [(String, String, ContractThrottler)] = [
        ("keeps-contract", "every third commit, the rest after 100 ms", ContractThrottler()),
        ("loses-tail", "every third commit only", ContractThrottler(losesTail: true)),
        ("asks-five-rows", "up to 5 rows at a time", ContractThrottler(partial: 5)),
        ("asks-negative-rows", "up to -5 rows at a time", ContractThrottler(partial: -5)),
        ("timer-ahead", "a timer 10 ms ahead", ContractThrottler(timerOffset: .milliseconds(10))),
        ("timer-in-past", "a timer 1,000 s in the past", ContractThrottler(timerOffset: .seconds(-1000))),
    ]
    for (name, summary, policy) in throttlers {
        try suite.throttlers.register(ThrottlerVariant(name: name, origin: .user, summary: summary, isDefault: false) { _ in policy })
    }
    for (name, summary, drops) in [
        ("keeps-early-blocks", "a turn per block at ready", false), ("drops-early-blocks", "forgets blocks registered before ready", true),
    ] {
        try suite.coordinators.register(
            ReadinessVariant(
                name: name,
                origin: .user,
                summary: summary,
                isDefault: false,
                sim: { ContractCoordinator(session: $0, dropsEarly: drops) }
            )
        )
    }
}
