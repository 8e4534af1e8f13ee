import Simulation

/// An online estimate of what an update of n rows costs: `a + b·n + g·n²`, fitted by
/// exponentially weighted least squares to the updates actually applied.
///
/// Starts from a deliberately pessimistic prior (3 ms + 0.25 ms/row) so that early decisions err
/// towards waiting, and forgets old observations (factor 0.97 per update) so that it follows a
/// device that slows down under background load.
public struct UpdateCostEstimator: Sendable {
    static let forgetting = 0.97
    // Normal equations Σw·xxᵀ (symmetric 3×3, stored in full) and Σw·x·y, x = (1, n, n²), y in ms.
    var s = [Double](repeating: 0, count: 9)
    var r = [Double](repeating: 0, count: 3)
    var coefficients = (a: 3.0, b: 0.25, g: 0.0)
    public private(set) var observations = 0

    public init() {
        for n in [1.0, 16, 64, 150] { add(rows: n, ms: 3 + 0.25 * n, weight: 0.25) }
    }

    /// Records an applied (non-reset) update.
    public mutating func observe(rows: Int, cost: SimDuration) {
        for i in 0..<9 { s[i] *= Self.forgetting }
        for i in 0..<3 { r[i] *= Self.forgetting }
        add(rows: Double(rows), ms: cost.milliseconds, weight: 1)
        observations += 1
        solve()
    }

    /// Predicted cost of an update of `rows` rows.
    public func predict(rows: Int) -> SimDuration {
        let n = Double(rows)
        let ms = max(coefficients.a + coefficients.b * n + coefficients.g * n * n, 0)
        return .milliseconds(ms)
    }

    /// The most rows, up to `limit`, whose predicted cost fits in `budget` (0 if none).
    public func rowsFitting(_ budget: SimDuration, limit: Int) -> Int {
        guard limit > 0, predict(rows: 1) <= budget else { return 0 }
        var lo = 1, hi = limit
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if predict(rows: mid) <= budget { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The feature x_i of an update of n rows: 1, n, n².
    @inline(__always) static func feature(_ i: Int, _ n: Double) -> Double {
        i == 0 ? 1 : (i == 1 ? n : n * n)
    }

    mutating func add(rows n: Double, ms y: Double, weight w: Double) {
        for i in 0..<3 {
            for j in 0..<3 { s[i * 3 + j] += w * Self.feature(i, n) * Self.feature(j, n) }
            r[i] += w * Self.feature(i, n) * y
        }
    }

    /// Gaussian elimination with partial pivoting on a stack copy of the normal equations (no heap
    /// allocation per update: the micro-benchmarks count them); keeps the old fit if singular.
    mutating func solve() {
        let solution: (Double, Double, Double)? = withUnsafeTemporaryAllocation(of: Double.self, capacity: 15) { buffer in
            for i in 0..<9 { buffer[i] = s[i] }
            for i in 0..<3 { buffer[9 + i] = r[i] }
            func m(_ row: Int, _ col: Int) -> Double { buffer[row * 3 + col] }
            for col in 0..<3 {
                var pivot = col
                for row in col + 1..<3 where abs(m(row, col)) > abs(m(pivot, col)) { pivot = row }
                guard abs(m(pivot, col)) > 1e-12 else { return nil }
                if pivot != col {
                    for k in 0..<3 { buffer.swapAt(col * 3 + k, pivot * 3 + k) }
                    buffer.swapAt(9 + col, 9 + pivot)
                }
                for row in col + 1..<3 {
                    let f = m(row, col) / m(col, col)
                    for k in col..<3 { buffer[row * 3 + k] -= f * m(col, k) }
                    buffer[9 + row] -= f * buffer[9 + col]
                }
            }
            // Back substitution into buffer[12...14].
            for row in stride(from: 2, through: 0, by: -1) {
                var sum = buffer[9 + row]
                for k in row + 1..<3 { sum -= m(row, k) * buffer[12 + k] }
                buffer[12 + row] = sum / m(row, row)
            }
            let x = (buffer[12], buffer[13], buffer[14])
            return x.0.isFinite && x.1.isFinite && x.2.isFinite ? x : nil
        }
        if let solution { coefficients = (solution.0, solution.1, solution.2) }
    }
}

/// A frame-cost estimate that covers most frames, not just the average: mean + 2 × mean
/// deviation, both exponentially weighted (the estimator TCP uses for its retransmit timeout).
public struct FrameCostEstimator: Sendable {
    var mean: Double?
    var deviation = 0.0

    public init() {}

    public mutating func observe(_ cost: SimDuration) {
        let x = Double(cost.nanoseconds)
        guard let m = mean else {
            mean = x
            deviation = x / 4
            return
        }
        deviation = 0.75 * deviation + 0.25 * abs(x - m)
        mean = 0.875 * m + 0.125 * x
    }

    /// The estimate, or `fallback` before the first frame.
    public func estimate(fallback: SimDuration) -> SimDuration {
        guard let mean else { return fallback }
        return SimDuration(nanoseconds: Int64((mean + 2 * deviation).rounded()))
    }
}
