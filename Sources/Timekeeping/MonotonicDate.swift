import CClockLoops
import Foundation

/// Signal's `MonotonicDate` on Linux: a point on `CLOCK_MONOTONIC_RAW`, for measuring durations.
///
/// The API follows Signal's (`init()`, `adding(_:)`, `-` giving a `MonotonicDuration`). One
/// deliberate difference: Signal's `-` subtracts `UInt64`s and traps when the left date is earlier;
/// here the difference clamps at zero, so a duration can never be negative and never traps, which is
/// the property the type exists for. `CLOCK_MONOTONIC_RAW` is never stepped or slewed, so on one
/// machine two readings in program order are already ordered; the clamp only matters for dates
/// passed in the wrong order.
public struct MonotonicDate: Comparable, Hashable, Sendable {
    /// Nanoseconds on `CLOCK_MONOTONIC_RAW`.
    public let rawValue: UInt64

    /// Reads `CLOCK_MONOTONIC_RAW` now.
    public init() {
        self.rawValue = pb_clock_read_ns(pb_clock_monotonic_raw())
    }

    /// A date from a reading taken elsewhere (a simulated clock, a recorded trace).
    public init(nanoseconds: UInt64) {
        self.rawValue = nanoseconds
    }

    /// This date moved by `timeInterval` seconds; negative intervals move it back, clamped at 0.
    public func adding(_ timeInterval: TimeInterval) -> MonotonicDate {
        guard timeInterval.isFinite else { return self }
        let delta = (timeInterval * 1e9).rounded()
        if delta >= 0 {
            let d = delta >= 1.8e19 ? UInt64.max : UInt64(delta)
            return MonotonicDate(nanoseconds: rawValue.addingReportingOverflow(d).overflow ? .max : rawValue + d)
        }
        let d = -delta >= 1.8e19 ? UInt64.max : UInt64(-delta)
        return MonotonicDate(nanoseconds: d > rawValue ? 0 : rawValue - d)
    }

    public static func < (lhs: MonotonicDate, rhs: MonotonicDate) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The time from `rhs` to `lhs`; zero (never negative, never a trap) when `lhs` is earlier.
    public static func - (lhs: MonotonicDate, rhs: MonotonicDate) -> MonotonicDuration {
        MonotonicDuration(nanoseconds: lhs.rawValue > rhs.rawValue ? lhs.rawValue - rhs.rawValue : 0)
    }
}

/// A non-negative length of time between two `MonotonicDate`s.
public struct MonotonicDuration: Comparable, Hashable, Sendable, CustomDebugStringConvertible {
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
    public init(milliseconds: UInt64) { self.nanoseconds = milliseconds.multipliedReportingOverflow(by: 1_000_000).overflow ? .max : milliseconds * 1_000_000 }

    /// Whole milliseconds, rounded down.
    public var milliseconds: UInt64 { nanoseconds / 1_000_000 }
    public var seconds: TimeInterval { TimeInterval(nanoseconds) / 1e9 }

    public static func < (lhs: MonotonicDuration, rhs: MonotonicDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var debugDescription: String { "\(seconds)s" }
}
