import CLockReference

/// An array behind a lock with Signal's `append` and `removeAll` (which returns the old contents):
/// the suite's `AtomicArray` and Signal's `AtomicArray` both have it, so the `array-append-drain`
/// loop is written once over it (`appendDrainLoop`).
protocol AppendDrainArray {
    /// Appends `value`; `work` runs inside the critical section first.
    func append(_ value: UInt64, holding work: () -> Void)
    /// Empties the array and returns what it held.
    func removeAll() -> [UInt64]
}

extension AtomicArray: AppendDrainArray where Element == UInt64 {}
extension SignalAtomicArray: AppendDrainArray where T == UInt64 {}

/// How many appends (per thread) between two drains in `array-append-drain` (computed, so it folds
/// to a constant in the loop).
var appendsPerDrain: Int { 64 }

/// `array-append-drain` `count` times: append with the cell's work inside, drain every
/// `appendsPerDrain` appends of this thread; tally = appended − drained. Always inlined into each
/// target's `perform`, where `Array` is concrete, so its calls are direct.
@inline(__always)
func appendDrainLoop<Array: AppendDrainArray>(_ array: Array, _ count: Int, _ state: inout WorkerState) {
    let cs = state.csIterations, gap = state.gapIterations
    let work = { if cs != 0 { _ = clr_spin(cs) } }
    var drained = 0
    for i in 0..<count {
        array.append(UInt64(truncatingIfNeeded: i), holding: work)
        state.sinceDrain += 1
        if state.sinceDrain == appendsPerDrain {
            state.sinceDrain = 0
            drained += array.removeAll().count
        }
        if gap != 0 { _ = clr_spin(gap) }
    }
    state.tally &+= Int64(count) - Int64(drained)
}
