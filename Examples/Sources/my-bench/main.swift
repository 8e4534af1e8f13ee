// my-bench: our own variants through PatternBench's scenarios, beside Signal's, the articles' and
// PatternBench's own. `swift run my-bench throttle --list` shows them labelled `user`.
import BenchSuite  // Suite, SuiteMain
import Caching  // CountBoundedCache, CacheVariant
import FanOut  // FanOutShape, FanOutVariant
import Foundation
import Lifecycle  // LifecyclePolicy, LifecycleVariant
import Locking  // LockStrategy, AtomicWrapper, LockVariant
import Readiness  // ReadinessPolicy, ReadinessAPI, ReadinessVariant
import Throttling  // UpdateThrottler, ThrottlerVariant

var suite = Suite()  // the suite's own variants of every role
do {
    // One line per variant: a name, where it comes from, one line for --list, and a factory.
    // snippet: register-throttler
    try suite.throttlers.register(
        ThrottlerVariant(name: "every-4th-commit", origin: .user, summary: "publish every 4th commit, or after 100 ms") { _ in
            EveryNthCommitThrottler(n: 4)
        }
    )
    // snippet: end
    try suite.caches.register(
        CacheVariant(
            name: "clock",
            origin: .user,
            summary: "CLOCK (second chance): a ring of reference bits",
            sim: { capacity, _ in ClockCache(capacity: capacity) },
            live: { capacity, _ in ClockCache(capacity: capacity) }
        )
    )
    try suite.coordinators.register(
        ReadinessVariant(
            name: "group",
            origin: .user,
            summary: "DispatchGroup: notify releases every task at ready",
            sim: { GroupReadinessPolicy(session: $0) },
            live: { GroupReadiness() }
        )
    )
    // snippet: register-rwlock
    try suite.locks.register(
        LockVariant(name: "rwlock", origin: .user, summary: "pthread_rwlock_t: reads share, updates exclusive", wrapper: RWLockAtomic<UInt64>.self)
    )
    // snippet: end
    // Fan-out shapes and lifecycle strategies are data: the variant is the declaration itself.
    try suite.fanOuts.register(hedgedNotify)
    try suite.lifecycleStrategies.register(dirtyRenameOnBackground)
} catch {
    // A clashing, reserved or malformed name: one line, exit 64, before anything runs.
    FileHandle.standardError.write(Data("my-bench: error: \(error.message)\n".utf8))
    exit(error.exitCode)
}
SuiteMain.run(suite)  // my-bench throttle|atomics|cache|readiness|group|lifecycle|gate [the bench-* flags]
