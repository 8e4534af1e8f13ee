import CLockReference

// The locked targets' sampled operation: the same operation as one step of `perform`, with the
// time it got the lock read first thing inside the critical section and the time it let go read
// last thing inside it, so that two threads' sampled holds of one lock can never overlap.

extension IncrementTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        let cs = state.csIterations
        let start = now()
        var acquired: UInt64 = 0
        var released: UInt64 = 0
        counter.update {
            acquired = now()
            if cs != 0 { _ = clr_spin(cs) }
            $0 &+= 1
            released = now()
        }
        if state.gapIterations != 0 { _ = clr_spin(state.gapIterations) }
        state.tally &+= 1
        return LockSample(start: start, acquired: acquired, released: released)
    }
}

extension DictionaryTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        let cs = state.csIterations
        let key = Int(state.generator.next() % Self.keyCount)
        let start = now()
        var acquired: UInt64 = 0
        var released: UInt64 = 0
        dictionary.update(key: key) {
            acquired = now()
            if cs != 0 { _ = clr_spin(cs) }
            $0 = ($0 ?? 0) &+ 1
            released = now()
        }
        if state.gapIterations != 0 { _ = clr_spin(state.gapIterations) }
        state.tally &+= 1
        return LockSample(start: start, acquired: acquired, released: released)
    }
}

extension TransitionTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        let cs = state.csIterations
        let start = now()
        var acquired: UInt64 = 0
        var released: UInt64 = 0
        let moved = machine.transition(from: state.guess, to: state.guess &+ 1) {
            acquired = now()
            if cs != 0 { _ = clr_spin(cs) }
            released = now()
        }
        if moved {
            state.guess &+= 1
            state.tally += 1
        } else {
            state.guess = machine.state
        }
        if state.gapIterations != 0 { _ = clr_spin(state.gapIterations) }
        return LockSample(start: start, acquired: acquired, released: released)
    }
}

extension FlagTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        let cs = state.csIterations
        let start = now()
        var acquired: UInt64 = 0
        var released: UInt64 = 0
        if state.clearNext {
            let cleared = flag.tryToClearFlag {
                acquired = now()
                if cs != 0 { _ = clr_spin(cs) }
                released = now()
            }
            if cleared { state.tally -= 1 }
        } else {
            let set = flag.tryToSetFlag {
                acquired = now()
                if cs != 0 { _ = clr_spin(cs) }
                released = now()
            }
            if set { state.tally += 1 }
        }
        state.clearNext.toggle()
        if state.gapIterations != 0 { _ = clr_spin(state.gapIterations) }
        return LockSample(start: start, acquired: acquired, released: released)
    }
}

extension ReadMostlyTarget {
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample {
        let cs = state.csIterations
        let start = now()
        var acquired: UInt64 = 0
        var released: UInt64 = 0
        if state.generator.next() % 10 == 0 {
            value.update {
                acquired = now()
                if cs != 0 { _ = clr_spin(cs) }
                $0 &+= 1
                released = now()
            }
            state.tally &+= 1
        } else {
            let read = value.withValue {
                acquired = now()
                if cs != 0 { _ = clr_spin(cs) }
                released = now()
                return $0
            }
            blackHole(read)
        }
        if state.gapIterations != 0 { _ = clr_spin(state.gapIterations) }
        return LockSample(start: start, acquired: acquired, released: released)
    }
}
