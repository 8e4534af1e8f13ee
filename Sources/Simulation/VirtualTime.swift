/// A point on the virtual time line, in integer nanoseconds since the start of a run.
///
/// Integer nanoseconds (not `Double` seconds) so that event ordering and every derived number
/// is bit-identical on every machine and in every build configuration.
public struct SimInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds: since the start of the run (an instant) or in all (a duration).
    public var nanoseconds: Int64

    /// The value with these nanoseconds.
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A computed constant, not a stored `static let`: outside this module a stored one is read
    /// through an accessor call per use (`cost > .zero` on every simulated item).
    @inlinable public static var zero: SimInstant { SimInstant(nanoseconds: 0) }

    @inlinable public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    @inlinable public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    @inlinable public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    @inlinable public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// Seconds since the start of the run, for reporting only (never for ordering).
    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }

    public var description: String { "\(seconds)s" }
}

/// A length of virtual time in integer nanoseconds.
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds: since the start of the run (an instant) or in all (a duration).
    public var nanoseconds: Int64

    /// The value with these nanoseconds.
    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// A computed constant, not a stored `static let`: outside this module a stored one is read
    /// through an accessor call per use (`cost > .zero` on every simulated item).
    @inlinable public static var zero: SimDuration { SimDuration(nanoseconds: 0) }

    // Whole-number factories take `Int` so that a literal picks them over the `Double` ones.
    /// `n` nanoseconds.
    @inlinable public static func nanoseconds(_ n: Int) -> SimDuration { SimDuration(nanoseconds: Int64(n)) }
    /// `us` microseconds.
    @inlinable public static func microseconds(_ us: Int) -> SimDuration { SimDuration(nanoseconds: Int64(us) * 1_000) }
    /// `ms` milliseconds.
    @inlinable public static func milliseconds(_ ms: Int) -> SimDuration { SimDuration(nanoseconds: Int64(ms) * 1_000_000) }

    /// Rounds a `Double` number of seconds to the nearest nanosecond (ties away from zero).
    /// Always inlined: out of line it was a call per generated commit.
    @inlinable @inline(__always) public static func seconds(_ s: Double) -> SimDuration {
        SimDuration(nanoseconds: roundedToInteger(s * 1e9))
    }

    /// `Int64(x.rounded())` (ties away from zero) without libm's `round` call, which x86-64's
    /// baseline instruction set has no instruction for (2 % of bench-throttle's profile). Below
    /// 2^52 it truncates `x + ±(0.5 − 2^−54)` (the sign of `x`), which is exact for every such `x`
    /// (a fraction of 0.5 or more carries over the next integer, anything less cannot: the sum
    /// rounds to a spacing of at least 2^−53 near the next integer; `ExactRounding` in Timekeeping
    /// is the same rule). No branch depends on the fraction: the previous truncate-and-compare
    /// form gave the same values, but its branch on a coin-flip fraction was 10 % of
    /// bench-throttle's cycles once the arrival stream was fast. Larger, NaN or infinite
    /// values take the original path (and trap the same way).
    @inlinable @inline(__always) static func roundedToInteger(_ x: Double) -> Int64 {
        guard x.magnitude < 0x1p52 else { return Int64(x.rounded()) }
        return Int64(x + Double(signOf: x, magnitudeOf: 0x1.fffffffffffffp-2))
    }

    /// Rounds a `Double` number of milliseconds to the nearest nanosecond.
    @inlinable public static func milliseconds(_ ms: Double) -> SimDuration {
        SimDuration(nanoseconds: roundedToInteger(ms * 1e6))
    }

    @inlinable public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    @inlinable public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
    }

    @inlinable public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
    }

    @inlinable public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds &* rhs)
    }

    /// In seconds, for reporting only (never for ordering).
    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }
    /// In milliseconds, for reporting only.
    @inlinable public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    public var description: String { "\(milliseconds)ms" }
}
