/// A small, fast, seedable generator (xoshiro256**), seeded through SplitMix64.
///
/// `SystemRandomNumberGenerator` cannot be seeded, and Foundation's generators differ between
/// platforms; this one gives the same stream for the same seed on every machine, which is what
/// makes virtual-time runs bit-identical.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    @usableFromInline var s0, s1, s2, s3: UInt64

    public init(seed: UInt64) {
        var sm = seed
        func splitMix(_ x: inout UInt64) -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(&sm)
        s1 = splitMix(&sm)
        s2 = splitMix(&sm)
        s3 = splitMix(&sm)
    }

    /// A generator for an independent sub-stream (e.g. one per arrival component), derived from
    /// this seed and a stream number so that adding a stream never shifts another's values.
    public static func stream(_ stream: UInt64, of seed: UInt64) -> SeededGenerator {
        SeededGenerator(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
    }

    @inlinable @inline(__always) public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) <<< 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 <<< 45
        return result
    }

    /// A uniform `Double` in [0, 1) with 53 random bits.
    @inlinable @inline(__always) public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform `Double` in (0, 1]: safe to take the logarithm of.
    @inlinable @inline(__always) public mutating func nextOpenUnit() -> Double {
        Double((next() >> 11) + 1) * 0x1.0p-53
    }

    /// A uniform integer in `range`, without modulo bias (Lemire's method is overkill here;
    /// rejection keeps it exact and the same on every platform).
    @inlinable public mutating func nextInt(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
        if span == 0 { return Int64(bitPattern: next()) }
        let limit = UInt64.max - (UInt64.max % span)
        var x = next()
        while x >= limit { x = next() }
        return range.lowerBound &+ Int64(bitPattern: x % span)
    }
}

infix operator <<< : BitwiseShiftPrecedence

/// Rotation left. Masking shifts and always inlined: the checked `<<`/`>>` kept it an out-of-line
/// call per generator step (3.5 % of bench-throttle's instructions); for k in 0...63
/// the result is the same.
@inlinable @inline(__always) func <<< (x: UInt64, k: UInt64) -> UInt64 { (x &<< k) | (x &>> (64 &- k)) }
