import CLockReference

// The operations on a whole atomic wrapper (`AtomicWrapper`), one target per operation. `increment`,
// `read-mostly` and `different-atomics` serve the suite's locks too, over `AtomicValue<UInt64, Lock>`;
// the others are the twins of the lock-generic targets (LockedTargets.swift), which go through
// the suite's flag, state, array and dictionary wrappers: the same work in the same place, the same
// tally, so the only difference is the wrapper. Each `perform` has a branch-free fast path for "no
// work", matching the C reference's loop.

/// `update { $0 += 1 }` `count` times on `counter`, with the cell's work inside and between; tally
/// = operations. The loop of `increment` and `different-atomics`.
@inline(__always)
func incrementLoop<W: AtomicWrapper<UInt64>>(_ counter: W, _ count: Int, _ state: inout WorkerState) {
    let cs = state.csIterations, gap = state.gapIterations
    if cs == 0 && gap == 0 {
        for _ in 0..<count { counter.update { $0 &+= 1 } }
    } else {
        for _ in 0..<count {
            counter.update {
                if cs != 0 { _ = clr_spin(cs) }
                $0 &+= 1
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
    }
    state.tally &+= Int64(count)
}

/// `increment`: tally = operations; observed = the value.
final class WrapperIncrementTarget<W: AtomicWrapper<UInt64>>: ContentionTarget {
    let counter = W(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        incrementLoop(counter, count, &state)
    }

    func observedTotal() -> Int64 { Int64(counter.withValue { $0 }) }
}

/// `read-mostly` `count` times: a write when the thread's generator draws 0 mod 10, else a read
/// (summed into a black hole), then the gap work; tally = writes. `write` and `read` do the cell's
/// critical-section work (`csIterations`) themselves: inside the lock, or before a lock-free
/// operation. Always inlined with its closures into each target's `perform`, so they are not calls.
@inline(__always)
func readMostlyLoop(
    _ count: Int,
    _ state: inout WorkerState,
    write: (_ csIterations: UInt64) -> Void,
    read: (_ csIterations: UInt64) -> UInt64
) {
    let cs = state.csIterations, gap = state.gapIterations
    var writes: Int64 = 0
    var sink: UInt64 = 0
    for _ in 0..<count {
        if state.generator.next() % 10 == 0 {
            write(cs)
            writes += 1
        } else {
            sink &+= read(cs)
        }
        if gap != 0 { _ = clr_spin(gap) }
    }
    blackHole(sink)
    state.tally &+= writes
}

/// `read-mostly`: 90 % `withValue`, 10 % `update`; tally = writes.
final class WrapperReadMostlyTarget<W: AtomicWrapper<UInt64>>: ContentionTarget {
    let value = W(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        readMostlyLoop(count, &state) { cs in
            value.update {
                if cs != 0 { _ = clr_spin(cs) }
                $0 &+= 1
            }
        } read: { cs in
            value.withValue {
                if cs != 0 { _ = clr_spin(cs) }
                return $0
            }
        }
    }

    func observedTotal() -> Int64 { Int64(value.withValue { $0 }) }
}

/// `AtomicState.transition(from:to:)` on a whole wrapper: `from` → `to` in one `update`, with the
/// cell's work inside; true when the value was `from`. The step of `flag` and `transition`.
@inline(__always)
func transition<W: AtomicWrapper<UInt64>>(_ wrapper: W, from: UInt64, to: UInt64, csIterations cs: UInt64) -> Bool {
    wrapper.update { v -> Bool in
        if cs != 0 { _ = clr_spin(cs) }
        guard v == from else { return false }
        v = to
        return true
    }
}

/// `flag`: the value holds 0 or 1; tally = successful sets − successful clears.
final class WrapperFlagTarget<W: AtomicWrapper<UInt64>>: ContentionTarget {
    let flag = W(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            let from: UInt64 = state.clearNext ? 1 : 0
            if transition(flag, from: from, to: 1 - from, csIterations: cs) { state.tally += state.clearNext ? -1 : 1 }
            state.clearNext.toggle()
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { Int64(flag.withValue { $0 }) }
}

/// `transition`: s → s + 1 from the thread's guess, re-reading on failure; tally = transitions.
final class WrapperTransitionTarget<W: AtomicWrapper<UInt64>>: ContentionTarget {
    let machine = W(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            if transition(machine, from: state.guess, to: state.guess &+ 1, csIterations: cs) {
                state.guess &+= 1
                state.tally += 1
            } else {
                state.guess = machine.withValue { $0 }
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { Int64(machine.withValue { $0 }) }
}

/// `different-atomics`: one wrapper per thread, spaced as the lock-generic target spaces them.
final class WrapperDifferentAtomicsTarget<W: AtomicWrapper<UInt64>>: ContentionTarget {
    let counters: [W]

    init(threads: Int) {
        counters = (0..<max(threads, 1) * DifferentAtomics.spacing).map { _ in W(0) }
    }

    func perform(_ count: Int, _ state: inout WorkerState) {
        let counter = counters[state.thread * DifferentAtomics.spacing]
        incrementLoop(counter, count, &state)
    }

    func observedTotal() -> Int64 {
        Int64(stride(from: 0, to: counters.count, by: DifferentAtomics.spacing).reduce(UInt64(0)) { $0 &+ counters[$1].withValue { $0 } })
    }
}

/// `dictionary-update` on a wrapper of `[Int: UInt64]`: tally = operations; observed = the sum.
final class WrapperDictionaryTarget<W: AtomicWrapper<[Int: UInt64]>>: ContentionTarget {
    let dictionary = W([:])

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            let key = Int(state.generator.next() % DictionaryTarget<UnsynchronizedLock>.keyCount)
            dictionary.update {
                if cs != 0 { _ = clr_spin(cs) }
                $0[key, default: 0] &+= 1
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 { Int64(dictionary.withValue { $0.values.reduce(0, &+) }) }
}

/// `array-append-drain` on a wrapper of `[UInt64]`: tally = appended − drained.
final class WrapperArrayTarget<W: AtomicWrapper<[UInt64]>>: ContentionTarget {
    let array = W([])

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        var drained = 0
        for i in 0..<count {
            array.update {
                if cs != 0 { _ = clr_spin(cs) }
                $0.append(UInt64(truncatingIfNeeded: i))
            }
            state.sinceDrain += 1
            if state.sinceDrain == appendsPerDrain {
                state.sinceDrain = 0
                // Swapping in a fresh empty array moves the old buffer out, as `AtomicArray.removeAll` does.
                drained +=
                    array.update { v -> [UInt64] in
                        let old = v
                        v = []
                        return old
                    }.count
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
        state.tally &+= Int64(count) - Int64(drained)
    }

    func observedTotal() -> Int64 { Int64(array.withValue { $0.count }) }
}
