import Foundation

/// The Mann–Whitney U test: does one sample tend to be larger than the other?
///
/// Rank-based, so it makes no assumption about the shape of timing distributions (which are
/// skewed and often bimodal on a shared machine) and one wild outlier cannot swing it. The
/// p-value uses the normal approximation with tie and continuity corrections, which is accurate
/// enough from about 5 repetitions a side; below that the gate reports "too few repetitions".
public enum MannWhitney {
    /// One-sided p-value for H1: values in `current` tend to be greater than in `baseline`.
    public static func pGreater(current: [Double], baseline: [Double]) -> Double {
        let n1 = Double(current.count), n2 = Double(baseline.count)
        guard n1 > 0, n2 > 0 else { return 1 }
        // Rank the pooled sample, averaging ranks over ties.
        let pooled = (current.map { ($0, 0) } + baseline.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count, pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let rank = Double(i + j + 2) / 2
            for k in i...j { ranks[k] = rank }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        let r1 = zip(pooled, ranks).filter { $0.0.1 == 0 }.reduce(0) { $0 + $1.1 }
        let u1 = r1 - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return u1 > mean ? 0 : 1 }
        let z = (u1 - mean - 0.5) / variance.squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }
}
