/// Order statistics and fairness measures over small samples (repetitions, per-thread counts).
public enum Statistics {
    /// The median; the mean of the two middle values for an even count. nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    public static func mean(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.reduce(0, +) / Double(values.count)
    }

    /// Jain's fairness index (Σx)² / (n·Σx²): 1 when every share is equal, 1/n when one thread
    /// got everything.
    public static func jainFairness(_ shares: [Double]) -> Double? {
        guard !shares.isEmpty else { return nil }
        let sum = shares.reduce(0, +)
        let squares = shares.reduce(0) { $0 + $1 * $1 }
        guard squares > 0 else { return nil }
        return sum * sum / (Double(shares.count) * squares)
    }

    /// Largest share over smallest; infinity when some thread got nothing.
    public static func maxMinRatio(_ shares: [Double]) -> Double? {
        guard let lo = shares.min(), let hi = shares.max() else { return nil }
        return lo > 0 ? hi / lo : .infinity
    }

    /// Summaries of `records` grouped by (scenario, variant, mode, factors, metric), in first-seen order.
    public static func summarize(_ records: [ResultRecord]) -> [SummaryRow] {
        struct Key: Hashable {
            var scenario, variant, mode, metric: String
            var factors: [String: String]
        }
        var order: [Key] = []
        var groups: [Key: (unit: String, values: [Double])] = [:]
        for r in records {
            let key = Key(scenario: r.scenario, variant: r.variant, mode: r.mode, metric: r.metric, factors: r.factors)
            if groups[key] == nil {
                order.append(key)
                groups[key] = (r.unit, [])
            }
            groups[key]!.values.append(r.value)
        }
        return order.map { key in
            let g = groups[key]!
            return SummaryRow(
                scenario: key.scenario,
                variant: key.variant,
                mode: key.mode,
                factors: key.factors,
                metric: key.metric,
                unit: g.unit,
                count: g.values.count,
                median: median(g.values)!,
                min: g.values.min()!,
                max: g.values.max()!,
                mean: mean(g.values)!
            )
        }
    }
}
