import CLockReference
import Simulation

/// Converts a `WorkAmount` into iterations of `clr_spin`, the busy-work function every variant
/// (Swift and C) calls, measured once per run on this machine.
package struct SpinCalibration: Sendable, Hashable {
    /// Nanoseconds one `clr_spin` iteration takes (the fastest of several trials).
    package var nanosecondsPerIteration: Double

    package init(nanosecondsPerIteration: Double) {
        self.nanosecondsPerIteration = nanosecondsPerIteration
    }

    /// Times `clr_spin` with `clock`; the minimum of 7 trials, so a preempted trial does not count.
    package static func measure(clock: some MonotonicClock, iterations: UInt64 = 2_000_000) -> SpinCalibration {
        var best = Double.infinity
        for _ in 0..<7 {
            let t0 = clock.nanoseconds()
            _ = clr_spin(iterations)
            let t1 = clock.nanoseconds()
            best = min(best, Double(t1 &- t0) / Double(iterations))
        }
        return SpinCalibration(nanosecondsPerIteration: max(best, 0.01))
    }

    /// Iterations for `amount`: 0 for none, at least 1 otherwise.
    package func iterations(for amount: WorkAmount) -> UInt64 {
        guard !amount.isZero else { return 0 }
        return max(1, UInt64((amount.nanoseconds / nanosecondsPerIteration).rounded()))
    }
}
