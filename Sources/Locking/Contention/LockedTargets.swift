import CLockReference

// The operations on the atomic wrappers, one target per operation, generic over the lock.
// Each `perform` has a branch-free fast path for "no work", matching the C reference's loop.

/// `increment` and `read-mostly` on the suite's `AtomicValue` are the whole-wrapper targets over
/// it (`AtomicValue` is an `AtomicWrapper`): one loop for a user's wrapper and the suite's.
typealias IncrementTarget<Lock: LockStrategy> = WrapperIncrementTarget<AtomicValue<UInt64, Lock>>
typealias ReadMostlyTarget<Lock: LockStrategy> = WrapperReadMostlyTarget<AtomicValue<UInt64, Lock>>

/// `flag`: tally = successful sets − successful clears; observed = 1 if set, else 0.
final class FlagTarget<Lock: LockStrategy>: ContentionTarget {
    let flag = AtomicFlag<Lock>()

    func perform(_ count: Int, _ state: inout WorkerState) {
        flagLoop(flag, count, &state)
    }

    func observedTotal() -> Int64 { flag.isSet ? 1 : 0 }
}

/// `transition`: tally = successful transitions; observed = the state (it counts transitions).
final class TransitionTarget<Lock: LockStrategy>: ContentionTarget {
    let machine = AtomicState<UInt64, Lock>(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        let work = { if cs != 0 { _ = clr_spin(cs) } }
        for _ in 0..<count {
            if machine.transition(from: state.guess, to: state.guess &+ 1, holding: work) {
                state.guess &+= 1
                state.tally += 1
            } else {
                state.guess = machine.state
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { Int64(machine.state) }
}

/// `dictionary-update`: tally = operations; observed = the sum of all values.
final class DictionaryTarget<Lock: LockStrategy>: ContentionTarget {
    static var keyCount: UInt64 { 64 }
    let dictionary = AtomicDictionary<Int, UInt64, Lock>()

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            let key = Int(state.generator.next() % Self.keyCount)
            dictionary.update(key: key) {
                if cs != 0 { _ = clr_spin(cs) }
                $0 = ($0 ?? 0) &+ 1
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 { Int64(dictionary.contents.values.reduce(0, &+)) }
}

/// `array-append-drain`: tally = appended − drained; observed = the elements left.
final class ArrayTarget<Lock: LockStrategy>: ContentionTarget {
    let array = AtomicArray<UInt64, Lock>()

    func perform(_ count: Int, _ state: inout WorkerState) {
        appendDrainLoop(array, count, &state)
    }

    func observedTotal() -> Int64 { Int64(array.count) }
}

/// Keeps a value alive so the optimiser cannot drop the reads that produced it.
@inline(never)
func blackHole<T>(_ value: T) {}
