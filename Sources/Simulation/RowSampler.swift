/// `RowDistribution.sample` with its constants computed once per stream: the same rows from the
/// same generator, bit for bit, at a fraction of the cost.
///
/// A geometric sample is `⌊log(u) / log(1 − p)⌋ + 1`. `sample` recomputed the constant
/// `log(1 − p)` for every commit, and the exact `DeterministicMath.log(u)` sums a series with a
/// division per term; together they were a third of bench-throttle's profile (issue 20). Only the
/// floor of the ratio matters, and it is k exactly when q^k < u ≤ q^(k−1) (q = 1 − p), so:
///
/// 1. u is compared with a table of q^k (k = 1…64, from `DeterministicMath.exp`): outside a band
///    of 1e-9 of each bound, the comparisons decide k (a few comparisons for a small mean);
/// 2. past the table, a fast approximate logarithm (IEEE basic operations only, relative error
///    below 1e-13) decides whenever the ratio lies more than 1e-9 of its size from an integer;
/// 3. otherwise (about one draw in 10⁸) the exact computation runs.
///
/// The bands are 10⁴ times wider than the errors of the table, the approximation and the exact
/// series together, so every decision is the exact computation's.
struct RowSampler: Sendable {
    enum Kind: Sendable {
        case fixed(Int32)
        case uniform(ClosedRange<Int64>)
        case one
        case geometric(logQ: Double, inverseLogQ: Double)
    }

    let kind: Kind
    /// For the geometric: `q^k · (1 + 1e-9)` and `q^k · (1 − 1e-9)` for k = 1…count, the bands
    /// around the bounds where the table does not decide.
    let above: [Double]
    let below: [Double]

    init(_ distribution: RowDistribution) {
        (above, below) = Self.bands(distribution)
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

    /// The geometric's table: q^k for k = 1…64, widened into bands of 1e-9 either way.
    static func bands(_ distribution: RowDistribution) -> (above: [Double], below: [Double]) {
        guard case .geometric(let mean) = distribution, mean > 1 else { return ([], []) }
        let logQ = DeterministicMath.log(1 - 1 / mean)
        var bounds: [Double] = []
        for k in 1...64 {
            let bound = DeterministicMath.exp(Double(k) * logQ)
            bounds.append(bound)
            if bound < 0x1p-54 { break }  // below every draw (the smallest is 2^-53)
        }
        return (bounds.map { $0 * (1 + 1e-9) }, bounds.map { $0 * (1 - 1e-9) })
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
            // 1. The table: k while u is below q^k's band, the answer once above it.
            var j = 0
            while j < above.count {
                if u > above[j] { return Int32(j + 1) }
                if u >= below[j] { break }  // inside the band: undecided
                j += 1
            }
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
