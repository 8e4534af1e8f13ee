import CClockLoops

/// The five clock sources a timing client can be built on, named as on the command line.
///
/// Each maps to one Linux clock: what it counts, and which kernel adjustments move it, is what the
/// whole workload is about (see `ClockSchedule` for the exact semantics).
public enum ClockKind: String, CaseIterable, Hashable, Sendable, Codable {
    /// Foundation's `Date()`: CLOCK_REALTIME read as `Double` seconds since 2001.
    case date
    /// `CLOCK_REALTIME`: the wall clock; stepped by `settimeofday`, slewed by NTP.
    case realtime
    /// `CLOCK_MONOTONIC`: never stepped, slewed by NTP, stops during suspend. `SuspendingClock` and
    /// `DispatchTime` read it on Linux.
    case monotonic
    /// `CLOCK_MONOTONIC_RAW` on Linux: the bare oscillator, never stepped or slewed, stops during
    /// suspend. Not the twin of Signal's `MonotonicDate`: Darwin's clock of the same name keeps
    /// counting while the device sleeps, Linux's does not.
    case monotonicRaw = "monotonic-raw"
    /// `CLOCK_BOOTTIME`: `CLOCK_MONOTONIC` plus the time spent suspended. `ContinuousClock` reads it
    /// on Linux, and so does `Timekeeping.MonotonicDate`: it is the Linux twin of Signal's
    /// `MonotonicDate` (Darwin `CLOCK_MONOTONIC_RAW`) for suspend, though NTP slews it.
    case boottime

    public var name: String { rawValue }

    /// The Linux clock id this source reads (`date` reads the wall clock through Foundation).
    package var clockID: clockid_t {
        switch self {
        case .date, .realtime: pb_clock_realtime()
        case .monotonic: pb_clock_monotonic()
        case .monotonicRaw: pb_clock_monotonic_raw()
        case .boottime: pb_clock_boottime()
        }
    }

    /// Whether a `settimeofday` step moves this clock.
    public var isWallClock: Bool { self == .date || self == .realtime }

    /// One line for `--list`.
    public var summary: String {
        switch self {
        case .date: "Foundation Date(): CLOCK_REALTIME as Double seconds since 2001 (~0.12 µs resolution)"
        case .realtime: "CLOCK_REALTIME: wall clock; steps, slews and drift move it"
        case .monotonic: "CLOCK_MONOTONIC (SuspendingClock, DispatchTime): slews and drift, no steps, stops in suspend"
        case .monotonicRaw: "CLOCK_MONOTONIC_RAW (Linux): drift only, stops in suspend (Darwin's counts sleep: not Signal's twin)"
        case .boottime: "CLOCK_BOOTTIME (ContinuousClock; Signal's MonotonicDate on Linux): like CLOCK_MONOTONIC but counts suspend"
        }
    }
}
