/// A reading as the client's own time type holds it, for code that must compare the way that type
/// does: a `Date`'s seconds since 2001-01-01 on the `date` source, integer nanoseconds on the
/// others.
///
/// `ClockSource.now()` gives every clock as integer nanoseconds, which for `date` is the `Date`
/// rounded again (to 128 ns at today's dates, where the `Date` itself steps by 2^−23 s ≈ 119 ns):
/// close, but not the value Signal's `Date` arithmetic sees, and exactly where a gate decides a
/// tie that difference decides it. The adaptive gate therefore keeps stamps.
public enum ClockStamp: Sendable, Hashable, Comparable {
    /// `Date().timeIntervalSinceReferenceDate`.
    case date(Double)
    /// A `clock_gettime` reading.
    case nanoseconds(Int64)

    /// `self − earlier` in seconds as the type subtracts: two `Date`s subtract their `Double`
    /// seconds (`timeIntervalSince`); integer readings subtract exactly, then convert once.
    @inline(__always)
    public func seconds(since earlier: ClockStamp) -> Double {
        switch (self, earlier) {
        case (.date(let a), .date(let b)): return a - b
        case (.nanoseconds(let a), .nanoseconds(let b)): return Double(a &- b) / 1e9
        default: preconditionFailure("stamps of two kinds of clock are never compared")
        }
    }

    public static func < (lhs: ClockStamp, rhs: ClockStamp) -> Bool {
        switch (lhs, rhs) {
        case (.date(let a), .date(let b)): return a < b
        case (.nanoseconds(let a), .nanoseconds(let b)): return a < b
        default: preconditionFailure("stamps of two kinds of clock are never compared")
        }
    }
}
