import Simulation

/// The shared object one contention run hammers, plus the check that no update was lost.
///
/// Each worker calls `perform` in batches; the call is dynamic once per batch, and inside it the
/// operation loop is specialised for one lock strategy, so a batch costs what the wrapper costs.
protocol ContentionTarget: AnyObject, Sendable {
    /// Runs `count` operations for the calling thread, updating its private state.
    func perform(_ count: Int, _ state: inout WorkerState)
    /// The value the workers' tallies must add up to, read after every worker has finished.
    func observedTotal() -> Int64
    /// One operation with its lock wait and hold timed, for the timeline (Timeline/LockSample).
    func performSampled(_ state: inout WorkerState, _ now: () -> UInt64) -> LockSample
}

/// One worker's private state: its generator, its tally, and the work it does per operation.
struct WorkerState {
    var generator: SeededGenerator
    /// This thread's contribution to the expected final value (see each target).
    var tally: Int64 = 0
    /// Transition: the state this thread believes is current. Flag: the next call clears when set.
    var guess: UInt64 = 0
    var clearNext = false
    /// Array: operations since this thread last drained.
    var sinceDrain = 0
    /// Critical-section and between-operation work, in `clr_spin` iterations.
    let csIterations: UInt64
    let gapIterations: UInt64
    /// This worker's index (0..<threads): which object it owns in `different-atomics`.
    let thread: Int

    init(seed: UInt64, thread: Int, csIterations: UInt64, gapIterations: UInt64) {
        generator = .stream(UInt64(thread), of: seed)
        self.thread = thread
        self.csIterations = csIterations
        self.gapIterations = gapIterations
    }
}
