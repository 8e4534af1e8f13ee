import Measurement

/// Exact counts of small non-negative integers (how many estimator samples were held at each
/// decision), with nearest-rank percentiles: deterministic, allocation-bounded by the largest value.
public struct SampleCountHistogram: Hashable, Sendable {
    var counts: [Int] = []
    public private(set) var total = 0

    public init() {}

    public mutating func record(_ value: Int) {
        let v = Swift.max(value, 0)
        if v >= counts.count { counts += Array(repeating: 0, count: v + 1 - counts.count) }
        counts[v] += 1
        total += 1
    }

    /// The smallest value with at least `p` % of the recorded values at or below it (nil if empty).
    public func percentile(_ p: Double) -> Int? {
        guard total > 0 else { return nil }
        let rank = Swift.max(1, Int((p / 100 * Double(total)).rounded(.up)))
        var seen = 0
        for (value, n) in counts.enumerated() {
            seen += n
            if seen >= rank { return value }
        }
        return counts.count - 1
    }

    public var largest: Int? { total > 0 ? counts.lastIndex { $0 > 0 } : nil }

    /// How many recorded values were below `value`.
    public func count(below value: Int) -> Int { counts.prefix(Swift.max(0, value)).reduce(0, +) }
}
