/// `x.rounded()` (to nearest, ties away from zero) without libm's `round` call, which x86-64's
/// baseline instruction set has no instruction for (4.7 % of bench-clock's default run, on every
/// scaled clock reading and every `Date()` conversion).
///
/// Below 2^52: truncate `x + ±(0.5 − 2^−54)` (the sign of `x`), which is exact for every such `x`
/// (a fraction of 0.5 or more carries over the next integer, anything less cannot, since the
/// addition rounds to the spacing of values at least 2^−52 apart); at or above 2^52 every `Double`
/// is already an integer, and NaN and the infinities round to themselves, so `x` is returned as
/// it is. No branch depends on the fraction: `SimDuration.roundedToInteger`'s pattern (truncate,
/// then compare the fraction with ±0.5) gave the same values and 2.4 % fewer instructions than
/// libm, but its coin-flip branch cost more CPU time than the call saved here. The one difference
/// from `rounded()` is the sign of a zero (−0.3 gives +0, not −0), which no caller can see: each
/// converts to an integer or compares with a non-zero bound. `ExactRoundingTests` checks both.
enum ExactRounding {
    /// 0.5 − 2^−54, the largest `Double` below one half.
    static let belowHalf = 0x1.fffffffffffffp-2

    @inline(__always) static func nearest(_ x: Double) -> Double {
        guard x.magnitude < 0x1p52 else { return x }
        return Double(Int64(x + Double(signOf: x, magnitudeOf: belowHalf)))
    }
}
