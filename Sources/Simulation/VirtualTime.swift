/// A point on the virtual time line, in integer nanoseconds since the start of a run.
///
/// Integer nanoseconds (not `Double` seconds) so that event ordering and every derived number
/// is bit-identical on every machine and in every build configuration.
public struct SimInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = SimInstant(nanoseconds: 0)

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
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = SimDuration(nanoseconds: 0)

    // Whole-number factories take `Int` so that a literal picks them over the `Double` ones.
    @inlinable public static func nanoseconds(_ n: Int) -> SimDuration { SimDuration(nanoseconds: Int64(n)) }
    @inlinable public static func microseconds(_ us: Int) -> SimDuration { SimDuration(nanoseconds: Int64(us) * 1_000) }
    @inlinable public static func milliseconds(_ ms: Int) -> SimDuration { SimDuration(nanoseconds: Int64(ms) * 1_000_000) }

    /// Rounds a `Double` number of seconds to the nearest nanosecond (ties away from zero).
    @inlinable public static func seconds(_ s: Double) -> SimDuration {
        SimDuration(nanoseconds: Int64((s * 1e9).rounded()))
    }

    /// Rounds a `Double` number of milliseconds to the nearest nanosecond.
    @inlinable public static func milliseconds(_ ms: Double) -> SimDuration {
        SimDuration(nanoseconds: Int64((ms * 1e6).rounded()))
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

    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }
    @inlinable public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    public var description: String { "\(milliseconds)ms" }
}
