import CClockLoops
import Foundation

/// Something a timing client reads the time from: a real clock in live mode, a simulated one in
/// sim mode. Clients never read a global clock, so the same client code runs in both.
///
/// Readings are integer nanoseconds on the clock's own scale: the epochs differ between clocks,
/// only differences of readings of one clock mean anything.
public protocol ClockSource {
    var kind: ClockKind { get }
    /// The current reading in nanoseconds.
    func now() -> Int64
    /// The elapsed time between two readings as the client's time API computes it: signed
    /// subtraction, except on `boottime`, which stands for Signal's `MonotonicDate` and subtracts
    /// the way it does (`MonotonicDate.-`). Where Signal's `-` would trap (`start` after `end`,
    /// which readings of a clock that never goes back, taken in program order, never are under the
    /// named scenarios) the signed difference is returned instead: a benchmark must not die, and
    /// the misuse then shows as a negative duration in the results.
    func elapsed(from start: Int64, to end: Int64) -> Int64
    /// The current reading as the client's time type holds it (`ClockStamp`): the `Date` itself on
    /// `date`, `now()` on the integer clocks.
    func stamp() -> ClockStamp
}

extension ClockSource {
    public func elapsed(from start: Int64, to end: Int64) -> Int64 {
        if kind == .boottime, start >= 0, end >= 0,
            let d = MonotonicDate.checkedDifference(MonotonicDate(nanoseconds: UInt64(end)), MonotonicDate(nanoseconds: UInt64(start)))
        {
            return Int64(d.nanoseconds)
        }
        return end &- start
    }

    public func stamp() -> ClockStamp { .nanoseconds(now()) }
}

/// How Foundation turns a CLOCK_REALTIME reading into a `Date`, and back into nanoseconds.
///
/// `Date` stores `Double` seconds since 2001-01-01, which for today's dates has a resolution of
/// about 0.12 µs; `Date()`-based code sees the wall clock through that rounding, so the simulated
/// `date` source applies it too.
package enum DateQuantization {
    /// Seconds between 1970-01-01 and 2001-01-01, as Foundation defines them.
    package static let referenceOffsetSeconds: Int64 = 978_307_200

    /// `Date(timeIntervalSinceReferenceDate:)` for a CLOCK_REALTIME reading, the way
    /// swift-corelibs-foundation computes it from a `timespec`.
    package static func timeInterval(realtimeNanoseconds r: Int64) -> Double {
        // Floor division without `r − 999_999_999`, which would overflow near Int64.min.
        var sec = r / 1_000_000_000
        var nsec = r % 1_000_000_000
        if nsec < 0 {
            sec -= 1
            nsec += 1_000_000_000
        }
        return Double(sec) - Double(referenceOffsetSeconds) + 1.0e-9 * Double(nsec)
    }

    /// A `Date`'s `timeIntervalSinceReferenceDate` as nanoseconds on the CLOCK_REALTIME scale.
    /// Saturates at the ends of `Int64` (±292 years) instead of trapping or wrapping; the simulated
    /// clocks never come near (`ClockSchedule.maximumOffset`), a broken real clock might.
    package static func nanoseconds(timeInterval: Double) -> Int64 {
        let n = ExactRounding.nearest(timeInterval * 1e9)
        guard n.isFinite, abs(n) < 9.2e18 else { return n < 0 ? .min : .max }
        let (sum, overflow) = Int64(n).addingReportingOverflow(referenceOffsetSeconds * 1_000_000_000)
        return overflow ? .max : sum
    }

    /// What `Date()` shows for a CLOCK_REALTIME reading, in nanoseconds on the same scale.
    package static func reading(realtimeNanoseconds r: Int64) -> Int64 {
        nanoseconds(timeInterval: timeInterval(realtimeNanoseconds: r))
    }
}

/// A real clock of this process: `Date()` or `clock_gettime` on the kind's clock id.
public struct SystemClock: ClockSource, Sendable {
    public let kind: ClockKind
    let id: clockid_t

    public init(_ kind: ClockKind) {
        self.kind = kind
        self.id = kind.clockID
    }

    @inline(__always)
    public func now() -> Int64 {
        if kind == .date {
            return DateQuantization.nanoseconds(timeInterval: Date().timeIntervalSinceReferenceDate)
        }
        return Int64(bitPattern: pb_clock_read_ns(id))
    }

    public func stamp() -> ClockStamp {
        kind == .date ? .date(Date().timeIntervalSinceReferenceDate) : .nanoseconds(now())
    }
}
