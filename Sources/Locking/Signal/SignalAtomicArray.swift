/// Signal's `AtomicArray<T>` as written: the elements are a stored property behind the lock the
/// caller passes (`sharedGlobal` by default); `removeAll()` copies the old contents out and
/// returns them.
///
/// Signal's `AtomicDictionary` has no read-modify-write of one entry (callers write
/// `d[k] = (d[k] ?? 0) + 1`: two critical sections, racy), so `signal-global-lock` does not run
/// `dictionary-update`: there is nothing atomic in Signal to measure there.
package final class SignalAtomicArray<T> {
    // Guarded by `lock`: read and written only inside `lock.withLock`.
    private let lock: SignalUnfairLock
    private var values: [T]

    package init(_ values: [T] = [], lock: SignalUnfairLock = .sharedGlobal) {
        self.values = values
        self.lock = lock
    }

    package func get() -> [T] { lock.withLock { values } }

    /// Appends one element; `work` runs inside the critical section first.
    @inline(__always)
    package func append(_ value: T, holding work: () -> Void = {}) {
        lock.withLock {
            work()
            values.append(value)
        }
    }

    package var count: Int { lock.withLock { values.count } }

    @inline(__always)
    @discardableResult
    package func removeAll() -> [T] {
        lock.withLock {
            let oldValues = values
            values = []
            return oldValues
        }
    }
}

// Sendable when the elements are: every access to `values` happens inside `lock.withLock`.
extension SignalAtomicArray: @unchecked Sendable where T: Sendable {}
