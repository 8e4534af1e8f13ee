import CClockLoops
import Foundation

/// Signal's `MonotonicDate` (`SignalServiceKit/DateProvider/MonotonicDate.swift`) on Linux: a
/// point on `CLOCK_BOOTTIME`, for measuring durations within one process.
///
/// Signal reads Darwin's `CLOCK_MONOTONIC_RAW`, which is never stepped and **keeps counting while
/// the device sleeps** (only Darwin's `CLOCK_UPTIME_RAW` stops). Linux's clock of the same name
/// stops in suspend, so it is the wrong twin; `CLOCK_BOOTTIME` counts suspend as Signal's clock
/// does (Swift's `ContinuousClock` reads it on Linux for the same reason). One difference remains
/// and is documented rather than hidden: `CLOCK_BOOTTIME` is slewed by NTP, Darwin's raw clock is
/// not; no Linux clock both counts suspend and ignores the slew.
///
/// The arithmetic is Signal's: `-` subtracts the raw `UInt64`s and **traps** when the right date
/// is later (Signal documents "the given date must not be after this date"); `adding(_:)` clamps
/// a negative interval to zero, so it never moves a date back. Readings taken in program order
/// never decrease, so `later - earlier` never traps; the trap is for a caller that swapped them.
public struct MonotonicDate: Comparable, Hashable, Sendable {
    /// Nanoseconds on `CLOCK_BOOTTIME`.
    public let rawValue: UInt64

    /// Reads `CLOCK_BOOTTIME` now.
    @inline(__always)
    public init() {
        self.rawValue = pb_clock_read_ns(pb_clock_boottime())
    }

    /// A date from a reading taken elsewhere (a simulated clock, a recorded trace).
    public init(nanoseconds: UInt64) {
        self.rawValue = nanoseconds
    }

    /// This date moved forward by `timeInterval` seconds; a negative (or NaN) interval counts as
    /// zero, as Signal's `clampedNanoseconds` does.
    public func adding(_ timeInterval: TimeInterval) -> MonotonicDate {
        MonotonicDate(nanoseconds: rawValue + MonotonicDuration(clampingSeconds: timeInterval).nanoseconds)
    }

    public static func < (lhs: MonotonicDate, rhs: MonotonicDate) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The time from `rhs` to `lhs`. `rhs` must not be after `lhs`: like Signal's, this traps
    /// (unsigned underflow) when it is.
    public static func - (lhs: MonotonicDate, rhs: MonotonicDate) -> MonotonicDuration {
        MonotonicDuration(nanoseconds: lhs.rawValue - rhs.rawValue)
    }

    /// `lhs - rhs` when `rhs` is not after `lhs`, nil where Signal's `-` would trap: for code
    /// that must report the misuse instead of dying (the simulation's scoring, tests).
    public static func checkedDifference(_ lhs: MonotonicDate, _ rhs: MonotonicDate) -> MonotonicDuration? {
        lhs.rawValue >= rhs.rawValue ? MonotonicDuration(nanoseconds: lhs.rawValue - rhs.rawValue) : nil
    }
}

/// A non-negative length of time between two `MonotonicDate`s.
public struct MonotonicDuration: Comparable, Hashable, Sendable, CustomDebugStringConvertible {
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }
    public init(milliseconds: UInt64) { self.nanoseconds = milliseconds * 1_000_000 }

    /// Seconds as nanoseconds, clamped into `0...UInt64.max` (negative and NaN give 0).
    public init(clampingSeconds seconds: TimeInterval) {
        let ns = (seconds * 1e9).rounded()
        if !(ns > 0) {
            self.nanoseconds = 0
        } else if ns >= 18_446_744_073_709_551_615.0 {
            self.nanoseconds = .max
        } else {
            self.nanoseconds = UInt64(ns)
        }
    }

    /// Whole milliseconds, rounded down.
    public var milliseconds: UInt64 { nanoseconds / 1_000_000 }
    public var seconds: TimeInterval { TimeInterval(nanoseconds) / 1e9 }

    public static func < (lhs: MonotonicDuration, rhs: MonotonicDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var debugDescription: String { nanoseconds < 1_000_000 ? "\(nanoseconds)ns" : "\(milliseconds)ms" }
}
