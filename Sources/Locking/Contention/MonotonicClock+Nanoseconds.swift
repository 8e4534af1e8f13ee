import Simulation

/// Locking's reading of the shared clock: unsigned nanoseconds since its origin, and sleeps in
/// nanoseconds. The contention runner and the probe take any `Simulation.MonotonicClock`
/// (`SystemMonotonicClock` live, `TestClock` in tests); reads happen twice per thread per run,
/// and per round trip in the probe, never per operation.
extension MonotonicClock {
    /// Nanoseconds since the clock's origin (never negative: the origin is the clock's start).
    @inline(__always)
    package func nanoseconds() -> UInt64 { UInt64(clamping: now().nanoseconds) }

    /// Blocks the calling thread for about `nanoseconds` (a test clock advances instead).
    package func sleep(nanoseconds: UInt64) { sleep(for: SimDuration(nanoseconds: Int64(clamping: nanoseconds))) }
}
