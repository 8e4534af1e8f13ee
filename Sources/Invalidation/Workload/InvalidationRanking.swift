import Measurement

/// The table printed at the end: per scenario, variants ranked by correctness first (missed
/// invalidations, then stale reads), then by cost (extra store reads). Medians over seeds.
public enum InvalidationRanking {
    static let columns: [(metric: String, title: String)] = [
        ("missed_invalidations", "missed"), ("stale_reads", "stale"), ("stale_read_pct", "stale %"),
        ("staleness_p99_ms", "stale p99 ms"), ("staleness_max_ms", "stale max ms"),
        ("ui_refresh_latency_p99_ms", "ui p99 ms"), ("hit_ratio", "hit"), ("extra_store_reads", "extra reads"),
        ("evacuations_per_s", "evac/s"), ("coalescing_ratio", "coalesce"), ("share_stale_reads", "share stale"),
    ]

    public static func render(records: [ResultRecord], scenarios: [String]) -> String {
        let summaries = Statistics.summarize(records)
        var out = ""
        for scenario in scenarios {
            let rows = summaries.filter { $0.scenario == scenario }
            let variants = rows.reduce(into: [String]()) { if !$0.contains($1.variant) { $0.append($1.variant) } }
            guard !variants.isEmpty else { continue }
            func value(_ v: String, _ m: String) -> Double { rows.first { $0.variant == v && $0.metric == m }?.median ?? .nan }
            let ranked = variants.sorted { a, b in
                let ka = [value(a, "missed_invalidations"), value(a, "stale_reads"), value(a, "extra_store_reads")]
                let kb = [value(b, "missed_invalidations"), value(b, "stale_reads"), value(b, "extra_store_reads")]
                return ka.lexicographicallyPrecedes(kb)
            }
            var table = TextTable(columns: ["#", "variant", "n"] + columns.map(\.title), rightAligned: Set(2..<(3 + columns.count)))
            for (i, v) in ranked.enumerated() {
                let cells = columns.map { c in rows.first { $0.variant == v && $0.metric == c.metric } }
                table.add(["\(i + 1)", v, TextTable.count(cells.compactMap { $0 })] + cells.map { $0?.cell ?? "-" })
            }
            out += "\n\(scenario)  (\(TextTable.spreadNote); ranked by median missed, stale reads, extra store reads)\n"
            out += table.render()
        }
        return out
    }
}
