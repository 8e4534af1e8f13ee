import Measurement

/// The summary tables bench-group prints, from its records.
enum FanOutRanking {
    static let shown: [(metric: String, header: String)] = [
        ("latency_p50_ms", "p50 ms"), ("latency_p99_ms", "p99 ms"), ("calls_per_flow", "calls"),
        ("threads_blocked_peak", "blocked thr"), ("main_blocked_ms", "main blocked ms"), ("missed_frames", "missed frames"),
        ("wasted_work_ms", "wasted ms"),
    ]

    /// Mean over seeds per (scenario, variant), in first-seen order.
    static func simTable(records: [ResultRecord]) -> String {
        var table = TextTable(columns: ["scenario", "variant", "origin"] + shown.map(\.header), rightAligned: Set(3..<(3 + shown.count)))
        for (scenario, variant, origin) in keys(records) {
            var row = [scenario, variant, origin]
            for m in shown {
                let values = records.filter { $0.scenario == scenario && $0.variant == variant && $0.metric == m.metric }.map(\.value)
                row.append(values.isEmpty ? "-" : TextTable.number(Statistics.mean(values) ?? 0))
            }
            table.add(row)
        }
        return "bench-group, virtual time (mean over seeds)\n" + table.render()
    }

    static func keys(_ records: [ResultRecord]) -> [(String, String, String)] {
        var out: [(String, String, String)] = []
        for r in records where !out.contains(where: { $0.0 == r.scenario && $0.1 == r.variant }) {
            out.append((r.scenario, r.variant, r.origin))
        }
        return out
    }
}
