/// A boolean behind a lock with Signal's test-and-set surface: `tryToSetFlag`, `tryToClearFlag`.
///
/// Each call reports whether *this* caller changed the flag, so exactly one of several racing
/// callers wins: the property the contention workload checks.
package final class AtomicFlag<Lock: LockStrategy> {
    let value: AtomicValue<Bool, Lock>

    package init(_ isSet: Bool = false, lock: Lock = Lock()) {
        value = AtomicValue(isSet, lock: lock)
    }

    package var isSet: Bool { value.get() }

    /// Sets the flag if it is clear; true when this call set it. `work` runs inside the critical
    /// section first (benchmarks use it to model a longer critical section).
    @inline(__always)
    package func tryToSetFlag(holding work: () -> Void = {}) -> Bool {
        value.update { flag in
            work()
            if flag { return false }
            flag = true
            return true
        }
    }

    /// Clears the flag if it is set; true when this call cleared it. `work` runs inside the
    /// critical section first.
    @inline(__always)
    package func tryToClearFlag(holding work: () -> Void = {}) -> Bool {
        value.update { flag in
            work()
            if !flag { return false }
            flag = false
            return true
        }
    }
}

// Sendable: the only state is an AtomicValue<Bool, Lock>, which guards itself with its lock.
extension AtomicFlag: @unchecked Sendable {}
