/// Signal's `AtomicBool` as written: `tryToSetFlag` and `tryToClearFlag` are a throwing
/// `transition` caught into a `Bool` (`do { try … ; return true } catch { return false }`), so a
/// failed attempt costs an error box, a throw and a catch.
package final class SignalAtomicBool: Sendable {
    let value: SignalAtomicValue<Bool>

    package init(_ value: Bool, lock: SignalUnfairLock = .sharedGlobal) {
        self.value = SignalAtomicValue(value, lock: lock)
    }

    package func get() -> Bool { value.get() }
    package func set(_ newValue: Bool) { value.set(newValue) }

    @inline(__always)
    func transition(from fromValue: Bool, to toValue: Bool, holding work: () -> Void) throws {
        try value.transition(from: fromValue, to: toValue, holding: work)
    }

    // tryToSetFlag and tryToClearFlag are written out as Signal writes them: one shared
    // tryTransition changed what the `flag` cell measures (see SignalFlagTarget).

    /// True when this call set the flag. `work` runs inside the critical section first.
    @inline(__always)
    package func tryToSetFlag(holding work: () -> Void = {}) -> Bool {
        do {
            try transition(from: false, to: true, holding: work)
            return true
        } catch {
            return false
        }
    }

    /// True when this call cleared the flag. `work` runs inside the critical section first.
    @inline(__always)
    package func tryToClearFlag(holding work: () -> Void = {}) -> Bool {
        do {
            try transition(from: true, to: false, holding: work)
            return true
        } catch {
            return false
        }
    }
}
