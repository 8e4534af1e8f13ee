#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `CLOCK_MONOTONIC` (a vDSO read, ~20 ns), read as nanoseconds since the clock was made.
///
/// Sleeps use absolute deadlines (`clock_nanosleep(TIMER_ABSTIME)`), so a loop of sleeps never
/// accumulates drift.
public struct SystemMonotonicClock: MonotonicClock {
    /// The raw `CLOCK_MONOTONIC` reading at which this clock reads zero.
    public let origin: Int64

    public init() { origin = Self.raw() }

    @inline(__always)
    public static func raw() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    @inline(__always)
    public func now() -> SimInstant { SimInstant(nanoseconds: Self.raw() - origin) }

    public func sleep(until instant: SimInstant) {
        let ns = origin + instant.nanoseconds
        var deadline = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        #if canImport(Glibc)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
        #else
        let remaining = instant - now()
        if remaining.nanoseconds > 0 {
            var request = timespec(tv_sec: Int(remaining.nanoseconds / 1_000_000_000), tv_nsec: Int(remaining.nanoseconds % 1_000_000_000))
            _ = deadline
            while nanosleep(&request, &request) != 0 && errno == EINTR {}
        }
        #endif
    }
}
