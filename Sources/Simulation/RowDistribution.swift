/// How many rows one commit changes.
public enum RowDistribution: Hashable, Sendable {
    case fixed(Int32)
    /// Uniform over a closed range.
    case uniform(ClosedRange<Int32>)
    /// Geometric on 1, 2, 3, … with the given mean (≥ 1): many small commits, a few larger.
    case geometric(mean: Double)

    @inlinable func sample(_ rng: inout SeededGenerator) -> Int32 {
        switch self {
        case .fixed(let n):
            return n
        case .uniform(let r):
            return Int32(rng.nextInt(in: Int64(r.lowerBound)...Int64(r.upperBound)))
        case .geometric(let mean):
            if mean <= 1 { return 1 }
            // P(X = k) = (1−p)^(k−1)·p with p = 1/mean, by inversion.
            let p = 1 / mean
            let u = rng.nextOpenUnit()
            let k = (DeterministicMath.log(u) / DeterministicMath.log(1 - p)).rounded(.down) + 1
            return Int32(min(k, 1_000_000))
        }
    }

    public var mean: Double {
        switch self {
        case .fixed(let n): Double(n)
        case .uniform(let r): (Double(r.lowerBound) + Double(r.upperBound)) / 2
        case .geometric(let mean): max(mean, 1)
        }
    }
}
