/// `RowDistribution.sample` with its constants computed once per stream: the same rows from the
/// same generator, bit for bit, at a fraction of the cost.
///
/// A geometric sample is `⌊log(u) / log(1 − p)⌋ + 1`. `sample` recomputed the constant
/// `log(1 − p)` for every commit, and the exact `DeterministicMath.log(u)` sums a series with a
/// division per term; together they were a third of bench-throttle's profile. Only the
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
    /// The bit patterns of `above`'s first 8 entries (all 0, below every draw, when `headCount` is
    /// 0): the head `sample` counts without a branch per entry. Integers, because for
    /// positive doubles the bit patterns order as the values do and a sign bit of a difference is
    /// arithmetic no compiler turns into a branch: `SIMD8`'s comparison compiled to a loop with a
    /// branch per lane, and `u <= bound ? 1 : 0` summed back into a tree of branches.
    let head: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64)
    /// +∞, then `below[0..<headCount]`: entry c is the band edge the head checks when c entries
    /// hold, with no branch on c = 0 (a coin flip at mean 2).
    let headBelow: [Double]
    /// 8, or 0 when the head cannot be used (fewer than 8 entries, or bounds that increase
    /// somewhere, which the prefix argument in `sample` rules out).
    let headCount: Int

    init(_ distribution: RowDistribution) {
        (above, below) = Self.bands(distribution)
        (head, headBelow, headCount) = Self.head(above: above, below: below)
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

    /// The table's first entries for the branch-free count, their band edges, and how many there
    /// are; 0 unless `above` and `below` do not increase over them (q^k decreases and the bands
    /// are q^k scaled by one constant, so they never increase in practice; the check keeps the
    /// argument exact), and unless the table has at least 8 entries.
    static func head(above: [Double], below: [Double]) -> ((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64), [Double], Int) {
        let none: ((Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64), [Double], Int) = ((0, 0, 0, 0, 0, 0, 0, 0), [], 0)
        guard above.count >= 8, above[0] <= 1, above[7] > 0 else { return none }
        for j in 1..<8 where above[j] > above[j - 1] || below[j] > below[j - 1] { return none }
        let b = above.prefix(8).map { Int64(bitPattern: $0.bitPattern) }
        return ((b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]), [.infinity] + below[0..<8], 8)
    }

    /// −1 if `u > bound`, else 0, for `u` in (0, 1] and a bound in [0, 2] given as bit patterns:
    /// both are positive (or zero) doubles, so their bit patterns order as their values, and the
    /// difference of two patterns below 2^63 cannot overflow; its sign bit is the comparison.
    @inline(__always) static func exceeds(_ u: Int64, _ bound: Int64) -> Int64 { (bound &- u) >> 63 }

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
            // 0. The table's head without a branch per entry: the walk below exits at a coin-flip
            // entry (p = 1/2 at mean 2), a mispredicted branch per commit. `above` does
            // not increase, so the entries with u ≤ above[j] are a prefix, c of them. If c is
            // below the head's count, the walk passes j = 0…c−1 and returns c + 1 at j = c, unless
            // it stops in a band first: u ≥ below[j] for some j < c. `below` does not increase
            // either, so that happens exactly when u ≥ below[c − 1] (`headBelow[c]`; never for
            // c = 0). Then it leaves the table for step 2 wherever it stopped, and so does this.
            // The same k as the walk, every draw.
            let h = head
            let bits = Int64(bitPattern: u.bitPattern)
            // 8 minus the entries u lies above: the entries with u ≤ above[j].
            var exceeded = Self.exceeds(bits, h.0) &+ Self.exceeds(bits, h.1) &+ Self.exceeds(bits, h.2) &+ Self.exceeds(bits, h.3)
            exceeded &+= Self.exceeds(bits, h.4) &+ Self.exceeds(bits, h.5) &+ Self.exceeds(bits, h.6) &+ Self.exceeds(bits, h.7)
            let c = Int(8 &+ exceeded)
            if c < headCount {
                if u < headBelow[c] { return Int32(c &+ 1) }
            } else {
                // 1. The table: k while u is below q^k's band, the answer once above it.
                var j = 0
                while j < above.count {
                    if u > above[j] { return Int32(j + 1) }
                    if u >= below[j] { break }  // inside the band: undecided
                    j += 1
                }
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
