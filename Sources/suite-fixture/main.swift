// A user's benchmark executable as the end-to-end tests need one: the suite plus user variants
// that behave well, trap, hang or break determinism (Tests/EndToEndTests/SuiteFixtureTests.swift).
// The tutorial-grade example is the separate package under Examples/.
import BenchSuite
import FanOut
import Foundation
import Measurement
import Simulation
import Synchronization
import Throttling

/// Publishes every third commit, and whatever is left when a frame completes with nothing newer.
struct EveryThird: UpdateThrottler {
    var seen = 0

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        return seen % 3 == 0 ? ThrottleDecision(publish: .all) : .none
    }

    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        context.pendingCommits > 0 && context.oldestPending.map { context.now - $0 > .milliseconds(100) } == true
            ? ThrottleDecision(publish: .all) : .none
    }
}

/// Traps on its tenth commit (a user's bug).
struct TrapsOnTenth: UpdateThrottler {
    var seen = 0

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        precondition(seen < 10, "TrapsOnTenth: a deliberate trap")
        return ThrottleDecision(publish: .all)
    }
}

/// Never returns from its first commit (a user's deadlock).
struct HangsOnFirst: UpdateThrottler {
    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        while true { usleep(100_000) }
    }
}

/// Reads process-wide state: the n-th policy built in a process publishes every (n+1)-th commit,
/// so the same seed gives other results in another run.
let policiesBuilt = Atomic<Int>(0)
struct ReadsAGlobal: UpdateThrottler {
    let every = policiesBuilt.add(1, ordering: .relaxed).newValue + 1
    var seen = 0

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        return seen % every == 0 ? ThrottleDecision(publish: .all) : .none
    }

    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        context.pendingCommits > 0 && context.oldestPending.map { context.now - $0 > .milliseconds(200) } == true
            ? ThrottleDecision(publish: .all) : .none
    }
}

var suite = Suite()
do {
    try suite.throttlers.register(
        ThrottlerVariant(name: "every-third", origin: .user, summary: "publish every third commit") { _ in EveryThird() }
    )
    try suite.throttlers.register(
        ThrottlerVariant(name: "traps-on-tenth", origin: .user, summary: "traps on its tenth commit", isDefault: false) { _ in
            TrapsOnTenth()
        }
    )
    try suite.throttlers.register(
        ThrottlerVariant(name: "hangs-on-first", origin: .user, summary: "never returns from its first commit", isDefault: false) { _ in
            HangsOnFirst()
        }
    )
    try suite.throttlers.register(
        ThrottlerVariant(name: "reads-a-global", origin: .user, summary: "depends on process-wide state", isDefault: false) { _ in
            ReadsAGlobal()
        }
    )
    // A user's fan-out strategy: DispatchGroup.notify with hedged calls (bench-group's role is the shape).
    try suite.fanOuts.register(
        FanOutVariant(
            name: "hedged-notify",
            origin: .user,
            summary: "DispatchGroup notify, calls hedged at their p95",
            shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .runToCompletion, hedged: true)
        )
    )
    try registerFixtureLocks(&suite)
    try registerFixtureTwins(&suite)
    try registerFixtureLifecycle(&suite)
    try registerFixtureFaults(&suite)
    try registerFixtureContractBreakers(&suite)
    if ProcessInfo.processInfo.environment["SUITE_FIXTURE_DUPLICATE"] != nil {
        try suite.throttlers.register(ThrottlerVariant(name: "signal-adaptive", origin: .user, summary: "a clash") { _ in EveryThird() })
    }
} catch {
    FileHandle.standardError.write(Data("suite-fixture: error: \(error.message)\n".utf8))
    exit(error.exitCode)
}
SuiteMain.run(suite)
