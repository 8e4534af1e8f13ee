import Foundation

/// The combined effect of a scenario's events, checked before a run: every field of every event
/// may be in range while their sum is not (two +100-year steps, a doubled rate over a century).
extension ClockSchedule {
    /// How far any clock may move from its reading at the start of the run: 2^62 ns, about 146
    /// years. Within it a reading, a deadline (a reading plus a timeout) and the difference of two
    /// readings of one clock all fit in `Int64`, so no client can overflow.
    public static let maximumOffset: Int64 = 1 << 62

    /// The first place, up to true time `until` (ns), where a clock leaves ±`maximumOffset` of its
    /// starting reading: the index of the event in effect there and a one-line reason naming the
    /// clock and the instant. nil when every reading stays in range.
    ///
    /// Readings are linear within a segment, so checking both ends of every segment is exact.
    public func rangeProblem(until: Int64) -> (event: Int, message: String)? {
        for (i, s) in segments.enumerated() where s.start <= until {
            let end = i + 1 < segments.count ? min(segments[i + 1].start, until) : until
            for t in [s.start, max(s.start, end)] {
                for kind in [ClockKind.monotonicRaw, .monotonic, .boottime, .realtime] {
                    let epoch = kind == .realtime ? Self.realtimeEpoch : Self.monotonicEpoch
                    let v = value(kind, s, at: t)
                    let (offset, overflow) = v.subtractingReportingOverflow(epoch)
                    guard overflow || offset.magnitude >= UInt64(Self.maximumOffset) else { continue }
                    let years = (Double(v) - Double(epoch)) / 1e9 / (365.25 * 86_400)
                    let moved = overflow || v == .max || v == .min ? "beyond Int64" : "\(years > 0 ? "+" : "")\(Self.compact(years)) years"
                    return (
                        max(s.cause, 0),
                        "\(Self.linuxName(kind)) would move \(moved) from its start by \(Self.compact(Double(t) / 1e9)) s "
                            + "into the run: the steps, slews and drifts so far add up beyond ±146 years (2^62 ns), "
                            + "the most a 64-bit nanosecond clock reading can move here"
                    )
                }
            }
        }
        return nil
    }

    static func linuxName(_ kind: ClockKind) -> String {
        switch kind {
        case .date, .realtime: "CLOCK_REALTIME"
        case .monotonic: "CLOCK_MONOTONIC"
        case .monotonicRaw: "CLOCK_MONOTONIC_RAW"
        case .boottime: "CLOCK_BOOTTIME"
        }
    }

    /// A number with at most four significant digits (no locale, no exponent below 1e6).
    static func compact(_ x: Double) -> String {
        if abs(x) >= 1e6 || (abs(x) < 1e-3 && x != 0) {
            var s = String(format: "%.3e", x)
            s = s.replacingOccurrences(of: "e+0", with: "e").replacingOccurrences(of: "e+", with: "e")
            return s
        }
        let s = String(format: "%.4g", x)
        return s
    }
}
