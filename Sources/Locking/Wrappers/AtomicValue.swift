/// A value behind a lock, with Signal's `AtomicValue` surface: get, set, `update`, `swap`.
///
/// The value lives in memory allocated once and reached through a pointer, so that accessing it
/// costs a load or a store and nothing else: a stored class property would add Swift's dynamic
/// exclusivity check to every access, a cost the C reference does not pay.
package final class AtomicValue<Value, Lock: LockStrategy> {
    package let lock: Lock
    // Guarded by `lock`: read and written only inside `lock.withLock`.
    let storage: UnsafeMutablePointer<Value>

    package init(_ value: Value, lock: Lock = Lock()) {
        self.lock = lock
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The current value.
    @inline(__always)
    package func get() -> Value {
        lock.withLock { storage.pointee }
    }

    /// Replaces the value.
    @inline(__always)
    package func set(_ newValue: Value) {
        lock.withLock { storage.pointee = newValue }
    }

    /// Replaces the value and returns the one it replaced, in one critical section.
    @inline(__always)
    @discardableResult
    package func swap(_ newValue: Value) -> Value {
        lock.withLock {
            let old = storage.pointee
            storage.pointee = newValue
            return old
        }
    }

    /// Mutates the value in place in one critical section: the read-modify-write that a separate
    /// `get` and `set` cannot provide.
    @inline(__always)
    @discardableResult
    package func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&storage.pointee) }
    }

    /// Reads the value inside the critical section, for work that must see a consistent value.
    @inline(__always)
    package func withValue<Result>(_ body: (Value) -> Result) -> Result {
        lock.withLock { body(storage.pointee) }
    }
}

// Sendable when the value is: every access to `storage` happens inside `lock.withLock`.
extension AtomicValue: @unchecked Sendable where Value: Sendable {}

// A counter on a lock is the simplest whole wrapper: `update` and `withValue` are its surface, so the
// scenarios a user's wrapper runs are the very loops the suite's locks run.
extension AtomicValue: AtomicWrapper where Value == UInt64 {
    /// The value on a fresh lock.
    package convenience init(_ value: Value) { self.init(value, lock: Lock()) }
}
