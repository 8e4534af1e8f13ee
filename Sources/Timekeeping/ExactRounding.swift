/// `x.rounded()` (to nearest, ties away from zero) without libm's `round` call, which x86-64's
/// baseline instruction set has no instruction for (3.5–4.7 % of bench-clock's default run, on
/// every scaled clock reading and every `Date()` conversion).
///
/// The pattern of `SimDuration.roundedToInteger` (Simulation), returning a `Double`: below 2^52
/// the truncation and the fraction left are exact, so the result is the same number; at or above
/// 2^52 every `Double` is already an integer, and NaN and the infinities round to themselves, so
/// `x` is returned as it is. The one difference is the sign of a zero (−0.3 gives +0, not −0),
/// which no caller can see: each converts to an integer or compares with a non-zero bound.
enum ExactRounding {
    @inline(__always) static func nearest(_ x: Double) -> Double {
        guard x.magnitude < 0x1p52 else { return x }
        let whole = Double(Int64(x))
        let fraction = x - whole
        if fraction >= 0.5 { return whole + 1 }
        if fraction <= -0.5 { return whole - 1 }
        return whole
    }
}
