import BenchSuite
import Caching
import ContractBreakers
import Foundation
import Measurement
import Readiness
import Throttling

// With `SUITE_FIXTURE_CONTRACTS` set: plausible nonsense a team's package may hold — variants that
// run to the end without a trap and would be ranked if nothing checked their role's contract
// (ContractBreakerTests). Each breaker has a twin that differs only by its fault and keeps the
// contract: the control that the check passes a variant that behaves. The types are the unit
// tests' (Tests/ContractBreakers).

func registerFixtureContractBreakers(_ suite: inout Suite) throws(BenchFailure) {
    guard ProcessInfo.processInfo.environment["SUITE_FIXTURE_CONTRACTS"] != nil else { return }
    let caches: [(String, String, CacheFault)] = [
        ("keeps-contract-cache", "evicts the oldest insertion", .none),
        ("miscounting-cache", "never evicts; count is Int.min", .miscounts),
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
        ("loses-tail", "stops publishing after five commits", ContractThrottler(losesTail: true)),
        ("asks-five-rows", "up to 5 rows at a time", ContractThrottler(partial: 5)),
        ("asks-negative-rows", "up to -5 rows at a time", ContractThrottler(partial: -5)),
        ("timer-ahead", "a timer 10 ms ahead", ContractThrottler(timerOffset: .milliseconds(10))),
        ("timer-in-past", "a timer 1,000 s in the past", ContractThrottler(timerOffset: .seconds(-1000))),
    ]
    for (name, summary, policy) in throttlers {
        try suite.throttlers.register(ThrottlerVariant(name: name, origin: .user, summary: summary, isDefault: false) { _ in policy })
    }
    let coordinators: [(String, String, CoordinatorFault)] = [
        ("keeps-early-blocks", "a turn per block at ready", .none),
        ("drops-early-blocks", "forgets blocks registered before ready", .dropsEarlyBlocks),
    ]
    for (name, summary, fault) in coordinators {
        try suite.coordinators.register(
            ReadinessVariant(
                name: name,
                origin: .user,
                summary: summary,
                isDefault: false,
                sim: { ContractCoordinator(session: $0, fault: fault) }
            )
        )
    }
    let liveForms: [(String, String, ReadinessAPIFault)] = [
        ("keeps-reentrant-tasks", "flag first, under a lock", .none),
        ("drops-reentrant-tasks", "runs the waiting tasks, then sets the flag and empties the list", .dropsReentrantTasks),
        ("runs-tasks-off-main", "runs the waiting tasks on a thread of its own", .runsTasksOnAnotherThread),
    ]
    for (name, summary, fault) in liveForms {
        try suite.coordinators.register(
            ReadinessVariant(name: name, origin: .user, summary: summary, isDefault: false, live: { ContractReadinessAPI(fault: fault) })
        )
    }
}
