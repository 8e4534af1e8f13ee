/// The error Signal's `transition(from:to:)` throws when the current value is not `from`.
package enum SignalAtomicError: Error, Equatable {
    case invalidTransition
}

/// Signal's `AtomicValue<T>` as written (`SignalServiceKit/Util/Atomics.swift`): the value is a
/// stored property of the class — so every access inside the lock pays Swift's dynamic exclusivity
/// check — and the lock is whichever `UnfairLock` the caller passes, in Signal almost always
/// `sharedGlobal`.
///
/// Unlike `AtomicValue<Value, Lock>` (the per-object lock behind every other strategy, whose value
/// lives behind a pointer), this one models Signal's code rather than the cheapest Swift.
package final class SignalAtomicValue<T> {
    // Guarded by `lock`: read and written only inside `lock.withLock`.
    private let lock: SignalUnfairLock
    private var value: T

    package init(_ value: T, lock: SignalUnfairLock = .sharedGlobal) {
        self.value = value
        self.lock = lock
    }

    @inline(__always)
    package func get() -> T {
        lock.withLock { self.value }
    }

    @inline(__always)
    package func set(_ value: T) {
        lock.withLock { self.value = value }
    }

    /// Returns the old value.
    @inline(__always)
    package func swap(_ value: T) -> T {
        lock.withLock {
            let oldValue = self.value
            self.value = value
            return oldValue
        }
    }

    /// Transforms the value with `block` and returns the new one.
    @inline(__always)
    @discardableResult
    package func map(_ block: (T) -> T) -> T {
        lock.withLock {
            let newValue = block(self.value)
            self.value = newValue
            return newValue
        }
    }

    @inline(__always)
    package func update<Result>(block: (inout T) throws -> Result) rethrows -> Result {
        try lock.withLock { () throws -> Result in try block(&self.value) }
    }
}

extension SignalAtomicValue where T: Equatable {
    /// Sets the value to `to` if it is `from`, otherwise throws — *inside* the lock, so a failed
    /// attempt allocates and throws a boxed error while holding it, as Signal's does. `work` runs
    /// inside the critical section first (the benchmark's critical-section length; Signal has none).
    @inline(__always)
    package func transition(from fromValue: T, to toValue: T, holding work: () -> Void = {}) throws {
        try lock.withLock { () throws -> Void in
            work()
            guard self.value == fromValue else {
                throw SignalAtomicError.invalidTransition
            }
            self.value = toValue
        }
    }
}

// Sendable when the value is: every access to `value` happens inside `lock.withLock`.
extension SignalAtomicValue: @unchecked Sendable where T: Sendable {}
