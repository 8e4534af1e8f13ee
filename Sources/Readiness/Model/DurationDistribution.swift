import Simulation

/// A bounded Pareto distribution (type I): `minimum · u^(−1/α)`, capped.
///
/// Launch work is heavy-tailed: most readiness blocks take a fraction of a millisecond, a few take
/// tens (a database write behind a checkpoint, a first keychain read). With α = 1.3 the mean is
/// 4.3 × the minimum and 1 draw in ~160 exceeds 50 × the minimum, so a 64-block launch often has
/// one long block — the case a launch coordinator must survive. Uses `DeterministicMath.pow` so a
/// seed gives the same durations on every machine.
package struct DurationDistribution: Sendable, Hashable {
    package var minimum: SimDuration
    package var alpha: Double
    package var cap: SimDuration

    package init(minimum: SimDuration, alpha: Double = 1.3, cap: SimDuration = .milliseconds(400)) {
        self.minimum = minimum
        self.alpha = alpha
        self.cap = cap
    }

    package func draw(_ g: inout SeededGenerator) -> SimDuration {
        let u = g.nextOpenUnit()
        let factor = DeterministicMath.pow(u, -1 / alpha)
        let ns = min(Double(cap.nanoseconds), (Double(minimum.nanoseconds) * factor).rounded())
        return SimDuration(nanoseconds: Int64(ns))
    }
}
