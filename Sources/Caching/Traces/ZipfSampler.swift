import Simulation

/// Draws ranks 0..<n with probability ∝ 1/(rank+1)^s by binary search in a cumulative table.
///
/// The table is built with `DeterministicMath.pow` (no libm), so the same seed gives the same
/// keys on every machine.
public struct ZipfSampler: Sendable {
    public let n: Int
    public let skew: Double
    private let cumulative: [Double]

    public init(n: Int, skew: Double) {
        self.n = n
        self.skew = skew
        var table = [Double](repeating: 0, count: n)
        var total = 0.0
        for k in 0..<n {
            total += 1 / DeterministicMath.pow(Double(k + 1), skew)
            table[k] = total
        }
        cumulative = table.map { $0 / total }
    }

    public func next(_ generator: inout SeededGenerator) -> Int {
        let u = generator.nextUnit()
        var lo = 0, hi = n - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
