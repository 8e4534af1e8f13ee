import CLockReference

/// Signal's test-and-set surface, which the suite's `AtomicFlag` has: the `flag` operation's loop
/// over it (`flagLoop`). Signal's `AtomicBool` has it too, but its target writes the loop out (see
/// `SignalFlagTarget`).
protocol TestAndSetFlag {
    /// True when this call set the flag; `work` runs inside the critical section first.
    func tryToSetFlag(holding work: () -> Void) -> Bool
    /// True when this call cleared the flag; `work` runs inside the critical section first.
    func tryToClearFlag(holding work: () -> Void) -> Bool
}

extension AtomicFlag: TestAndSetFlag {}

/// `flag` `count` times: alternately set and clear, with the cell's work inside and between;
/// tally = successful sets − successful clears. Always inlined into each target's `perform`, where
/// `Flag` is concrete, so the flag's calls are direct, as when each target wrote the loop out.
@inline(__always)
func flagLoop<Flag: TestAndSetFlag>(_ flag: Flag, _ count: Int, _ state: inout WorkerState) {
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
