#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one injectable clock of the suite: every pattern's live mode reads time only through it.
///
/// Time is a `SimInstant` (integer nanoseconds since the clock's origin) so that live code uses
/// the very same types as the virtual-time simulation, and a test can drive live code with a
/// `TestClock` instead of the real one. Wall-clock time is deliberately absent: it can be stepped
/// under a run (bench-clock exists to show what that does), a monotonic clock cannot.
public protocol MonotonicClock: Sendable {
    /// The time since this clock's origin.
    func now() -> SimInstant
    /// Blocks the calling thread until `instant` (a test clock advances to it instead).
    func sleep(until instant: SimInstant)
}

extension MonotonicClock {
    /// Blocks the calling thread for `duration`.
    public func sleep(for duration: SimDuration) {
        sleep(until: now() + duration)
    }

    /// Burns real CPU on this thread until `instant`: a spinning loop, not a sleep, to occupy the
    /// core the way rendering or diffing would. On a test clock it returns at once once the clock
    /// has reached `instant`, so callers that advance the clock themselves never spin forever.
    @discardableResult
    public func burn(until instant: SimInstant) -> UInt64 {
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
