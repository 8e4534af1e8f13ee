/// `RowDistribution.sample` with its constants computed once per stream: the same rows from the
/// same generator, bit for bit, at a fraction of the cost.
///
/// A geometric sample is `⌊log(u) / log(1 − p)⌋ + 1`. `sample` recomputed the constant
/// `log(1 − p)` for every commit, and the exact `DeterministicMath.log(u)` sums a series with a
/// division per term; together they were a third of bench-throttle's profile (issue 20). Only the
/// floor of the ratio matters, so a fast approximation of the logarithm (IEEE basic operations
/// only, relative error below 1e-13) decides it whenever the ratio lies more than 1e-9 of its size
/// away from an integer — far beyond both computations' error, so the floor is the exact one's —
/// and the exact computation runs for the rest (about one sample in 10⁸).
struct RowSampler: Sendable {
    enum Kind: Sendable {
        case fixed(Int32)
        case uniform(ClosedRange<Int64>)
        case one
        case geometric(logQ: Double, inverseLogQ: Double)
    }

    let kind: Kind

    init(_ distribution: RowDistribution) {
        switch distribution {
        case .fixed(let n):
            kind = .fixed(n)
        case .uniform(let r):
            kind = .uniform(Int64(r.lowerBound)...Int64(r.upperBound))
        case .geometric(let mean):
            if mean <= 1 {
                kind = .one
            } else {
                let logQ = DeterministicMath.log(1 - 1 / mean)
                kind = .geometric(logQ: logQ, inverseLogQ: 1 / logQ)
            }
        }
    }

    @inline(__always) func sample(_ rng: inout SeededGenerator) -> Int32 {
        switch kind {
        case .fixed(let n):
            return n
        case .uniform(let r):
            return Int32(rng.nextInt(in: r))
        case .one:
            return 1
        case let .geometric(logQ, inverseLogQ):
            let u = rng.nextOpenUnit()
            let k: Double
            let ratio = DeterministicMath.approximateLog(u) * inverseLogQ  // ≥ 0
            if ratio < 2_000_000 {
                let whole = Int64(ratio)  // ⌊ratio⌋: ratio is not negative
                let fraction = ratio - Double(whole)
                let margin = 1e-9 * (ratio + 1)
                if fraction > margin, fraction < 1 - margin {
                    k = Double(whole) + 1
                } else {
                    k = (DeterministicMath.log(u) / logQ).rounded(.down) + 1
                }
            } else {
                k = (DeterministicMath.log(u) / logQ).rounded(.down) + 1
            }
            return Int32(min(k, 1_000_000))
        }
    }
}
