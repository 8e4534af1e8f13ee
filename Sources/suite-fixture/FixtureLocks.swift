import BenchSuite
// bench-atomics' user variants for the end-to-end tests: a lock and a whole atomic wrapper that
// behave, a lock that traps, and a wrapper that loses updates (the control for the lost-update
// check on a user's code).
import Foundation
import Locking
import Measurement
import Synchronization

/// A user's lock that behaves: `NSLock` behind the role.
final class FixtureLock: LockStrategy, @unchecked Sendable {
    // NSLock is the synchronisation itself.
    let lock = NSLock()

    init() {}

    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// Traps on its 100,000th acquisition (a user's bug that only shows under load).
final class TrapsLock: LockStrategy, Sendable {
    let mutex = Mutex<Int>(0)

    init() {}

    func withLock<Result>(_ body: () -> Result) -> Result {
        mutex.withLock { count in
            count += 1
            precondition(count < 100_000, "TrapsLock: a deliberate trap")
            return body()
        }
    }
}

/// A user's whole wrapper that behaves: a value behind `Synchronization.Mutex`.
final class FixtureWrapper<Value: Sendable>: AtomicWrapper, Sendable {
    let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withValue<Result>(_ body: (Value) -> Result) -> Result { mutex.withLock { body($0) } }

    func update<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}

/// A wrapper whose `update` reads and writes in two critical sections: concurrent updates are lost.
final class LosesUpdatesWrapper: AtomicWrapper, Sendable {
    let mutex = Mutex<UInt64>(0)

    init(_ value: UInt64) { mutex.withLock { $0 = value } }

    func withValue<Result>(_ body: (UInt64) -> Result) -> Result { mutex.withLock { body($0) } }

    func update<Result>(_ body: (inout UInt64) -> Result) -> Result {
        var copy = mutex.withLock { $0 }
        let result = body(&copy)
        mutex.withLock { $0 = copy }
        return result
    }
}

/// A user's lock that does not exclude: `withLock` just runs the body (a lock that forgot to lock).
final class NoExclusionLock: LockStrategy, Sendable {
    init() {}

    func withLock<Result>(_ body: () -> Result) -> Result { body() }
}

/// Registers the fixture's locks (none runs by default: the tests name them).
func registerFixtureLocks(_ suite: inout Suite) throws(BenchFailure) {
    try suite.locks.register(
        LockVariant(
            name: "no-exclusion-lock",
            origin: .user,
            summary: "runs the body unlocked",
            isDefault: false,
            lock: NoExclusionLock.self
        )
    )
    try suite.locks.register(
        LockVariant(name: "fixture-lock", origin: .user, summary: "NSLock behind the role", isDefault: false, lock: FixtureLock.self)
    )
    try suite.locks.register(
        LockVariant(
            name: "fixture-wrapper",
            origin: .user,
            summary: "a Mutex-backed whole wrapper",
            isDefault: false,
            wrapper: FixtureWrapper<UInt64>.self,
            array: FixtureWrapper<[UInt64]>.self,
            dictionary: FixtureWrapper<[Int: UInt64]>.self
        )
    )
    try suite.locks.register(
        LockVariant(
            name: "traps-lock",
            origin: .user,
            summary: "traps on its 100,000th acquisition",
            isDefault: false,
            lock: TrapsLock.self
        )
    )
    try suite.locks.register(
        LockVariant(
            name: "loses-updates",
            origin: .user,
            summary: "update in two critical sections",
            isDefault: false,
            wrapper: LosesUpdatesWrapper.self
        )
    )
    if ProcessInfo.processInfo.environment["SUITE_FIXTURE_DUPLICATE_LOCK"] != nil {
        try suite.locks.register(LockVariant(name: "pthread-mutex", origin: .user, summary: "a clash", lock: FixtureLock.self))
    }
    if ProcessInfo.processInfo.environment["SUITE_FIXTURE_RESERVED_LOCK"] != nil {
        try suite.locks.register(LockVariant(name: "harness", origin: .user, summary: "a reserved name", lock: FixtureLock.self))
    }
}
