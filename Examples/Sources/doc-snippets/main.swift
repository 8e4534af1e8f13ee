// The registration lines docs/your-own-variant.md shows for its own examples (OldestFirst,
// TurnPerBlock, MyLock), compiled here so that they cannot rot. The tutorial is my-bench.
import BenchSuite
import Caching
import Foundation
import Locking
import Readiness

var suite = Suite()
do {
    // snippet: register-cache
    try suite.caches.register(CacheVariant(name: "oldest-first", origin: .user, summary: "FIFO, my way", sim: { c, _ in OldestFirst(capacity: c) }, live: { c, _ in OldestFirst(capacity: c) }))
    // snippet: end
    // snippet: register-readiness
    try suite.coordinators.register(ReadinessVariant(name: "turn-per-block", origin: .user, summary: "a turn per block at ready", sim: { TurnPerBlock(session: $0) }))
    // snippet: end
    // snippet: register-lock
    try suite.locks.register(LockVariant(name: "my-lock", origin: .user, summary: "my lock", lock: MyLock.self))
    // snippet: end
} catch {
    FileHandle.standardError.write(Data("doc-snippets: error: \(error.message)\n".utf8))
    exit(error.exitCode)
}
SuiteMain.run(suite)
