import CClockLoops
import Foundation

/// One reading of the wall clock's offset from the monotonic clock, `CLOCK_REALTIME` read between
/// two `CLOCK_MONOTONIC` reads.
///
/// Why bracketed: the live harness checks that the child sees the wall offset the scenario asked
/// for to within 5 ms. A bare pair of reads is off by however long the thread was preempted between
/// them — on a loaded 2-core machine, several milliseconds — which the check would blame on
/// libfaketime. A reading whose bracket is wider than `maxBracketNs` is refused rather than
/// trusted, so the check measures the offset, not the scheduler.
struct WallOffsetReading {
    /// 0.25 ms: two clock reads take well under 1 µs (100 ns under libfaketime's cache); a wider
    /// bracket means the thread was descheduled in between.
    static let maxBracketNs: Int64 = 250_000

    /// The monotonic instant of the reading (the bracket's midpoint), in ns.
    var monotonicNs: Int64
    /// `CLOCK_REALTIME − CLOCK_MONOTONIC` at that instant, in ns.
    var offsetNs: Int64

    /// A reading, or nil when the realtime read was not bracketed tightly enough.
    static func read(mono: clockid_t, real: clockid_t) -> WallOffsetReading? {
        let before = Int64(pb_clock_read_ns(mono))
        let wall = Int64(pb_clock_read_ns(real))
        let after = Int64(pb_clock_read_ns(mono))
        guard after - before <= maxBracketNs else { return nil }
        let mid = before + (after - before) / 2
        return WallOffsetReading(monotonicNs: mid, offsetNs: wall - mid)
    }

    /// The first tight reading of up to `attempts`; the last loose one if none was tight (the
    /// harness needs a starting offset whatever the load).
    static func settled(mono: clockid_t, real: clockid_t, attempts: Int = 100) -> WallOffsetReading {
        for _ in 0..<attempts {
            if let reading = read(mono: mono, real: real) { return reading }
        }
        let m = Int64(pb_clock_read_ns(mono))
        return WallOffsetReading(monotonicNs: m, offsetNs: Int64(pb_clock_read_ns(real)) - m)
    }
}
