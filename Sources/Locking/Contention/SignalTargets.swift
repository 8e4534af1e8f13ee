import CLockReference

// The operations on Signal's atomics as written (`SignalAtomicValue`, `SignalAtomicBool`,
// `SignalAtomicArray`), all on `SignalUnfairLock.sharedGlobal`: the `signal-global-lock` variant.
// Each mirrors the generic target of the same operation, so the only differences from a
// per-object-lock strategy are Signal's: one process-wide lock, stored-property values, and a
// throwing `transition` behind the flag.

/// `update { $0 += 1 }` `count` times on Signal's `AtomicValue`, the work always inside the closure
/// (no fast path: Signal's call sites have none); tally = operations. The loop of `increment` and
/// `different-atomics`.
@inline(__always)
func signalIncrementLoop(_ counter: SignalAtomicValue<UInt64>, _ count: Int, _ state: inout WorkerState) {
    let cs = state.csIterations, gap = state.gapIterations
    for _ in 0..<count {
        counter.update { (v: inout UInt64) in
            if cs != 0 { _ = clr_spin(cs) }
            v &+= 1
        }
        if gap != 0 { _ = clr_spin(gap) }
    }
    state.tally &+= Int64(count)
}

/// `increment` on Signal's `AtomicValue.update`.
final class SignalIncrementTarget: ContentionTarget {
    let counter = SignalAtomicValue<UInt64>(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        signalIncrementLoop(counter, count, &state)
    }

    func observedTotal() -> Int64 { Int64(counter.get()) }
}

/// `read-mostly`: 90 % `get()` (with the work inside the lock through `update`), 10 % `update`.
final class SignalReadMostlyTarget: ContentionTarget {
    let value = SignalAtomicValue<UInt64>(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        readMostlyLoop(count, &state) { cs in
            value.update { (v: inout UInt64) in
                if cs != 0 { _ = clr_spin(cs) }
                v &+= 1
            }
        } read: { cs in
            if cs == 0 { return value.get() }
            return value.update { (v: inout UInt64) -> UInt64 in
                _ = clr_spin(cs)
                return v
            }
        }
    }

    func observedTotal() -> Int64 { Int64(value.get()) }
}

/// `flag` on Signal's `AtomicBool`: half the attempts fail under contention, each failure a
/// thrown and caught `invalidTransition`.
final class SignalFlagTarget: ContentionTarget {
    let flag = SignalAtomicBool(false)

    // Written out rather than through `flagLoop` (and `SignalAtomicBool`'s two `do/try/catch`
    // bodies stay written out too): with both shared, the optimiser compiled Signal's throwing
    // `transition` differently, 83 instructions an operation uncontended instead of 176 (callgrind,
    // release), which would change what this variant measures.
    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        let work = { if cs != 0 { _ = clr_spin(cs) } }
        for _ in 0..<count {
            if state.clearNext {
                if flag.tryToClearFlag(holding: work) { state.tally -= 1 }
            } else {
                if flag.tryToSetFlag(holding: work) { state.tally += 1 }
            }
            state.clearNext.toggle()
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { flag.get() ? 1 : 0 }
}

/// `transition` on Signal's throwing `AtomicValue.transition(from:to:)`.
final class SignalTransitionTarget: ContentionTarget {
    let machine = SignalAtomicValue<UInt64>(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        let work = { if cs != 0 { _ = clr_spin(cs) } }
        for _ in 0..<count {
            do {
                try machine.transition(from: state.guess, to: state.guess &+ 1, holding: work)
                state.guess &+= 1
                state.tally += 1
            } catch {
                state.guess = machine.get()
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { Int64(machine.get()) }
}

/// `array-append-drain` on Signal's `AtomicArray` (its `removeAll()` copies the old contents out).
final class SignalArrayTarget: ContentionTarget {
    let array = SignalAtomicArray<UInt64>()

    func perform(_ count: Int, _ state: inout WorkerState) {
        appendDrainLoop(array, count, &state)
    }

    func observedTotal() -> Int64 { Int64(array.count) }
}
