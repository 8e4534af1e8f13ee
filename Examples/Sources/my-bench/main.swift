// my-bench: our own variants through PatternBench's scenarios, beside Signal's, the articles' and
// PatternBench's own. `swift run my-bench throttle --list` shows them labelled `user`.
import BenchSuite
import Caching
import Foundation
import Locking
import Readiness
import Throttling

var suite = Suite()
do {
    // One line per variant: a name, where it comes from, one line for --list, and a factory.
    try suite.throttlers.register(
        ThrottlerVariant(name: "every-4th-commit", origin: .user, summary: "publish every 4th commit, or after 100 ms") { _ in
            EveryNthCommitThrottler(n: 4)
        }
    )
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
    try suite.locks.register(
        LockVariant(name: "rwlock", origin: .user, summary: "pthread_rwlock_t: reads share, updates exclusive", wrapper: RWLockAtomic<UInt64>.self)
    )
} catch {
    FileHandle.standardError.write(Data("my-bench: error: \(error.message)\n".utf8))
    exit(error.exitCode)
}
SuiteMain.run(suite)
