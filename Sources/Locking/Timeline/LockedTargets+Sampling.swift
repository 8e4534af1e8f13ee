import CLockReference

// The locked targets' sampled operation: the same operation as one step of `perform`, with the
// time it got the lock read first thing inside the critical section and the time it let go read
// last thing inside it, so that two threads' sampled holds of one lock can never overlap.

/// The acquired and released stamps of one sampled operation, taken by `hold` from inside its
/// critical section: the one place the stamps are read, for every locked target.
struct HoldStamps {
    let csIterations: UInt64
    var acquired: UInt64 = 0
    var released: UInt64 = 0

    /// Reads the acquired time, does the cell's critical-section work and `change` (the part of the
    /// critical section that changes the value), and reads the released time.
    @inline(__always)
    mutating func hold<Result>(_ now: () -> UInt64, _ change: () -> Result) -> Result {
        acquired = now()
        if csIterations != 0 { _ = clr_spin(csIterations) }
        let result = change()
        released = now()
        return result
    }
}

/// One sampled operation: reads `start`, runs `operation` (which calls `HoldStamps.hold` once
/// inside its critical section), then does the gap work.
@inline(__always)
func sampledOperation(
    _ state: inout WorkerState,
    _ now: () -> UInt64,
    _ operation: (inout WorkerState, inout HoldStamps) -> Void
) -> LockSample {
    var stamps = HoldStamps(csIterations: state.csIterations)
    let start = now()
    operation(&state, &stamps)
    if state.gapIterations != 0 { _ = clr_spin(state.gapIterations) }
    return LockSample(start: start, acquired: stamps.acquired, released: stamps.released)
}

extension IncrementTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        sampledOperation(&state, now) { state, stamps in
            counter.update { v in stamps.hold(now) { v &+= 1 } }
            state.tally &+= 1
        }
    }
}

extension DictionaryTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        // The key is drawn before the start is read, as `perform` draws it before the lock.
        let key = Int(state.generator.next() % Self.keyCount)
        return sampledOperation(&state, now) { state, stamps in
            dictionary.update(key: key) { v in stamps.hold(now) { v = (v ?? 0) &+ 1 } }
            state.tally &+= 1
        }
    }
}

extension TransitionTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        sampledOperation(&state, now) { state, stamps in
            if machine.transition(from: state.guess, to: state.guess &+ 1, holding: { stamps.hold(now) {} }) {
                state.guess &+= 1
                state.tally += 1
            } else {
                state.guess = machine.state
            }
        }
    }
}

extension FlagTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        sampledOperation(&state, now) { state, stamps in
            if state.clearNext {
                if flag.tryToClearFlag(holding: { stamps.hold(now) {} }) { state.tally -= 1 }
            } else {
                if flag.tryToSetFlag(holding: { stamps.hold(now) {} }) { state.tally += 1 }
            }
            state.clearNext.toggle()
        }
    }
}

extension ReadMostlyTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        sampledOperation(&state, now) { state, stamps in
            if state.generator.next() % 10 == 0 {
                value.update { v in stamps.hold(now) { v &+= 1 } }
                state.tally &+= 1
            } else {
                blackHole(value.withValue { v in stamps.hold(now) { v } })
            }
        }
    }
}
