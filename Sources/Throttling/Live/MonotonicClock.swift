import Foundation
import Simulation

/// The real monotonic clock (`CLOCK_MONOTONIC`), read as nanoseconds since the run began.
///
/// Live mode's only source of time: the wall clock can be stepped under a run (see bench-clock),
/// the monotonic clock cannot. Expressed as `SimInstant` so the policies and the pipeline use
/// the very same types as in virtual time.
public struct MonotonicClock: Sendable {
    public let origin: Int64

    public init() { origin = Self.raw() }

    @inline(__always) static func raw() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    @inline(__always) public func now() -> SimInstant { SimInstant(nanoseconds: Self.raw() - origin) }

    /// The absolute `CLOCK_MONOTONIC` time of `instant`, for absolute-deadline waits.
    func absolute(_ instant: SimInstant) -> timespec {
        let ns = origin + instant.nanoseconds
        return timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
    }

    /// Sleeps until `instant` on an absolute deadline, so sleeps never accumulate drift.
    func sleep(until instant: SimInstant) {
        var deadline = absolute(instant)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }

    /// Burns real CPU on this thread until `instant` (a spinning loop, not a sleep: the point is to
    /// occupy the core the way rendering or diffing would).
    @discardableResult
    func burn(until instant: SimInstant) -> UInt64 {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        while now() < instant {
            for _ in 0..<64 {
                x ^= x << 13
                x ^= x >> 7
                x ^= x << 17
            }
        }
        return x
    }
}
