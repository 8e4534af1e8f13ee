import CLockShim

#if canImport(Glibc)
import Glibc
#endif

/// The clock a live run reads: injected, so that no pattern code reads a global clock directly
/// and tests can substitute their own.
package protocol MonotonicClock: Sendable {
    /// Nanoseconds on a monotonic time line with an arbitrary origin.
    func nanoseconds() -> UInt64
    /// Blocks the calling thread for about `nanoseconds`.
    func sleep(nanoseconds: UInt64)
}

/// `CLOCK_MONOTONIC` (a vDSO read, ~20 ns) and `nanosleep`.
package struct LiveMonotonicClock: MonotonicClock {
    package init() {}

    @inline(__always)
    package func nanoseconds() -> UInt64 { lks_monotonic_ns() }

    package func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
