import Measurement

/// The summary tables bench-group prints, from its records.
enum FanOutRanking {
    static let shown: [(metric: String, header: String)] = [
        ("latency_p50_ms", "p50 ms"), ("latency_p99_ms", "p99 ms"), ("calls_per_flow", "calls"),
        ("threads_blocked_peak", "blocked thr"), ("main_blocked_ms", "main blocked ms"), ("missed_frames", "missed frames"),
        ("wasted_work_ms", "wasted ms"),
    ]

    /// Median (min–max) over seeds per (scenario, variant), in first-seen order.
    static func simTable(records: [ResultRecord]) -> String {
        var table = TextTable(
            columns: ["scenario", "variant", "origin", "n"] + shown.map(\.header),
            rightAligned: Set(3..<(4 + shown.count))
        )
        for (scenario, variant, origin) in keys(records) {
            let cells = shown.map { m in
                records.filter { $0.scenario == scenario && $0.variant == variant && $0.metric == m.metric }.map(\.value)
            }
            let counts = Set(cells.filter { !$0.isEmpty }.map(\.count)).sorted()
            let n = counts.isEmpty ? "0" : counts.count == 1 ? "\(counts[0])" : "\(counts.first!)-\(counts.last!)"
            table.add(
                [scenario, variant, origin, n]
                    + cells.map { v in
                        v.isEmpty ? "-" : TextTable.spread(median: Statistics.median(v)!, min: v.min()!, max: v.max()!)
                    }
            )
        }
        return "bench-group, virtual time (\(TextTable.spreadNote))\n" + table.render()
    }

    static func keys(_ records: [ResultRecord]) -> [(String, String, String)] {
        var out: [(String, String, String)] = []
        for r in records where !out.contains(where: { $0.0 == r.scenario && $0.1 == r.variant }) {
            out.append((r.scenario, r.variant, r.origin))
        }
        return out
    }
}
