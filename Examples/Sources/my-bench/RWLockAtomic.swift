#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking

/// A value behind a reader-writer lock: reads (`withValue`) share the lock, read-modify-writes
/// (`update`) hold it alone. The bet a team makes with it: on read-mostly data, readers stop
/// queueing behind each other.
///
/// A whole atomic wrapper (`AtomicWrapper`), not just a lock: a plain `withLock` cannot tell a read
/// from a write, so the type owns its value and its synchronisation. The lock lives in memory
/// allocated once (a pthread lock must never move), like the suite's `pthread-mutex`.
///
/// Registered in main.swift with:
/// ```swift
/// try suite.locks.register(LockVariant(name: "rwlock", origin: .user, summary: "…", wrapper: RWLockAtomic<UInt64>.self))
/// ```
public final class RWLockAtomic<Value>: AtomicWrapper, @unchecked Sendable {
    // `value` is read only under the read lock and written only under the write lock.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    public init(_ value: Value) {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        let rc = pthread_rwlock_init(lock, nil)
        precondition(rc == 0, "pthread_rwlock_init failed: \(rc)")
        self.value = value
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    public func withValue<Result>(_ body: (Value) -> Result) -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body(value)
    }

    public func update<Result>(_ body: (inout Value) -> Result) -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body(&value)
    }
}
