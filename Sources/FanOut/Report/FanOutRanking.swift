import Records

/// The summary tables bench-group prints, from its records.
enum FanOutRanking {
    static let shown: [(metric: String, header: String)] = [
        ("latency_p50_ms", "p50 ms"), ("latency_p99_ms", "p99 ms"), ("calls_per_flow", "calls"),
        ("threads_blocked_peak", "blocked thr"), ("main_blocked_ms", "main blocked ms"), ("missed_frames", "missed frames"),
        ("wasted_work_ms", "wasted ms"),
    ]

    /// Median (min–max) over seeds per (scenario, variant), in first-seen order, from the run's
    /// summaries (`Statistics.summarize` of its sim records: one row per scenario, variant and
    /// metric, since a scenario has one `movies` factor).
    static func simTable(summaries: [SummaryRow], origin: (String) -> String) -> String {
        var table = TextTable(
            columns: ["scenario", "variant", "origin", "n"] + shown.map(\.header),
            rightAligned: Set(3..<(4 + shown.count))
        )
        var keys: [(String, String)] = []
        for s in summaries where !keys.contains(where: { $0 == (s.scenario, s.variant) }) { keys.append((s.scenario, s.variant)) }
        for (scenario, variant) in keys {
            let cells = shown.map { m in summaries.first { $0.scenario == scenario && $0.variant == variant && $0.metric == m.metric } }
            let counts = Set(cells.compactMap { $0?.count }).sorted()
            let n = counts.isEmpty ? "0" : counts.count == 1 ? "\(counts[0])" : "\(counts.first!)-\(counts.last!)"
            table.add([scenario, variant, origin(variant), n] + cells.map { $0?.cell ?? "-" })
        }
        return "bench-group, virtual time (\(TextTable.spreadNote))\n" + table.render()
    }
}
