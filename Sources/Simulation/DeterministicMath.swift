/// `log` and `exp` built from IEEE-754 basic operations only.
///
/// The platform's libm is not required to round `log`/`exp` identically across versions and
/// architectures, and one ulp of difference in an inter-arrival time reorders events. These
/// versions use only `+ − × ÷` and exact bit manipulation, which IEEE-754 defines exactly, so an
/// arrival trace is bit-identical everywhere. Accuracy is within a few ulps (tested to 1e-14
/// relative against glibc), far beyond what a workload model needs.
public enum DeterministicMath {
    /// Natural logarithm of a positive, finite `x`.
    public static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log domain")
        // x = m · 2^e with m in [sqrt(1/2), sqrt(2)). For a normal x, `exponent` and
        // `significand` are the exponent field and the fraction under a 1: read from the bits
        // (the same values; the standard library's properties were out-of-line calls).
        var e: Int
        var m: Double  // in [1, 2)
        if x.exponentBitPattern != 0 {
            e = Int(x.exponentBitPattern) - 1023
            m = Double(sign: .plus, exponentBitPattern: 1023, significandBitPattern: x.significandBitPattern)
        } else {
            e = Int(x.exponent)
            m = x.significand
        }
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        // log(m) = 2·atanh(s), s = (m−1)/(m+1), |s| < 0.1716: the series converges fast.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = s
        var k = 3.0
        while true {
            term *= s2
            let next = sum + term / k
            if next == sum { break }
            sum = next
            k += 2
        }
        return 2 * sum + Double(e) * 0.6931471805599453
    }

    /// `log(x)` for a positive normal `x` to a relative error below 1e-13 (0 at 1), without the
    /// series' divisions: for decisions with a margin (`RowSampler`), never for a value a result
    /// carries. IEEE basic operations only, so it is the same everywhere too.
    @inline(__always) static func approximateLog(_ x: Double) -> Double {
        // x = m · 2^e with m in [sqrt(1/2), sqrt(2)), from the bits (x is normal: nextOpenUnit's
        // smallest value is 2^-53).
        var e = Int(x.exponentBitPattern) - 1023
        var m = Double(sign: .plus, exponentBitPattern: 1023, significandBitPattern: x.significandBitPattern)
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        let s = (m - 1) / (m + 1)
        let z = s * s  // < 0.0295: the terms below z^8/17 (< 3.5e-14) are dropped
        let series = 1 + z * (1.0 / 3 + z * (1.0 / 5 + z * (1.0 / 7 + z * (1.0 / 9 + z * (1.0 / 11 + z * (1.0 / 13 + z * (1.0 / 15)))))))
        return 2 * s * series + Double(e) * 0.6931471805599453
    }

    /// `e^x` for finite `x`; underflows to 0 and overflows to +infinity like libm.
    public static func exp(_ x: Double) -> Double {
        precondition(!x.isNaN, "exp of NaN")
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        // x = k·ln2 + r, |r| <= ln2/2, computed with a two-part ln2 for accuracy.
        let k = (x * 1.4426950408889634).rounded()
        let r = (x - k * 0.6931471803691238) - k * 1.9082149292705877e-10
        var term = 1.0
        var sum = 1.0
        var n = 1.0
        while true {
            term *= r / n
            let next = sum + term
            if next == sum { break }
            sum = next
            n += 1
        }
        return scale(sum, by: Int(k))
    }

    /// `base^exponent` for positive `base`.
    public static func pow(_ base: Double, _ exponent: Double) -> Double {
        exp(exponent * log(base))
    }

    static func scale(_ x: Double, by k: Int) -> Double {
        // Split the scaling so that intermediate powers of two stay representable.
        var result = x
        var k = k
        while k > 1000 {
            result *= 0x1p1000
            k -= 1000
        }
        while k < -1000 {
            result *= 0x1p-1000
            k += 1000
        }
        return result * Double(sign: .plus, exponent: k, significand: 1)
    }
}
