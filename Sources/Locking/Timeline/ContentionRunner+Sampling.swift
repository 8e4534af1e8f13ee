import Simulation

extension ContentionRunner {
    /// The worker loop while sampling: the measuring loop's batches, and every `sampling.every`-th
    /// batch one sampled operation more (counted in the operations), until the stop flag or the
    /// limit; past the limit it runs the plain loop. Returns the operations done.
    @inline(__always)
    static func sampledLoop<Target: ContentionTarget>(
        _ target: Target,
        _ state: inout WorkerState,
        batch: Int,
        sampling: LockSampling,
        line: StartLine,
        clock: any MonotonicClock,
        record: (LockSample) -> Void
    ) -> UInt64 {
        var operations: UInt64 = 0
        var countdown = sampling.every
        var left = sampling.limit
        repeat {
            target.perform(batch, &state)
            operations &+= UInt64(batch)
            countdown -= 1
            if countdown == 0, left > 0 {
                countdown = sampling.every
                left -= 1
                record(target.performSampled(&state) { clock.nanoseconds() })
                operations &+= 1
            }
        } while !line.shouldStop
        return operations
    }
}
