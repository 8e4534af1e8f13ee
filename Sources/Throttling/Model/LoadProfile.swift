import Simulation

/// Background load over time: a factor ≥ 1 by which every main-thread cost is stretched
/// (other apps, thermal throttling, a busy background queue stealing the core).
public enum LoadProfile: Hashable, Sendable {
    case none
    /// A constant factor.
    case steady(Double)
    /// `factor` between `from` and `until` seconds, 1 elsewhere.
    case spike(factor: Double, from: Double, until: Double)

    public var name: String {
        switch self {
        case .none: "none"
        case .steady(let f): "steady-\(f)x"
        case let .spike(f, from, until): "spike-\(f)x-\(from)s-\(until)s"
        }
    }

    @inlinable public func factor(at time: SimInstant) -> Double {
        switch self {
        case .none: return 1
        case .steady(let f): return f
        case let .spike(f, from, until):
            let s = time.seconds
            return s >= from && s < until ? f : 1
        }
    }

    @inlinable public func scale(_ cost: SimDuration, at time: SimInstant) -> SimDuration {
        let f = factor(at: time)
        if f == 1 { return cost }
        return SimDuration(nanoseconds: Int64((Double(cost.nanoseconds) * f).rounded()))
    }
}
