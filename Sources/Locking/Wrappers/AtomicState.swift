/// A state behind a lock that changes only by an explicit transition, like Signal's state
/// wrappers: `transition(from:to:)` succeeds only when the current state is `from`.
package final class AtomicState<State: Equatable, Lock: LockStrategy> {
    let value: AtomicValue<State, Lock>

    package init(_ initial: State, lock: Lock = Lock()) {
        value = AtomicValue(initial, lock: lock)
    }

    package var state: State { value.get() }

    /// Moves from `from` to `to` and returns true, or leaves the state alone and returns false
    /// when the current state is not `from`. `work` runs inside the critical section first.
    @inline(__always)
    package func transition(from: State, to: State, holding work: () -> Void = {}) -> Bool {
        value.update { current in
            work()
            guard current == from else { return false }
            current = to
            return true
        }
    }
}

// Sendable when the state is: it is only reached through an AtomicValue, which holds its lock.
extension AtomicState: @unchecked Sendable where State: Sendable {}
