import Records

/// The table printed at the end: per scenario, variants ranked by correctness first (missed
/// invalidations, then stale reads), then by cost (extra store reads). Medians over seeds.
public enum InvalidationRanking: ScenarioRanking {
    public static let columns: [SummaryTable.Column] = [
        ("missed_invalidations", "missed"), ("stale_reads", "stale"), ("stale_read_pct", "stale %"),
        ("staleness_p99_ms", "stale p99 ms"), ("staleness_max_ms", "stale max ms"),
        ("ui_refresh_latency_p99_ms", "ui p99 ms"), ("hit_ratio", "hit"), ("extra_store_reads", "extra reads"),
        ("evacuations_per_s", "evac/s"), ("coalescing_ratio", "coalesce"), ("share_stale_reads", "share stale"),
    ]

    /// One scenario: its variants ranked by median missed invalidations, then stale reads, then extra
    /// store reads.
    public static func section(_ scenario: String, table: SummaryTable) -> String {
        let ranked = table.variants.sorted { a, b in
            let ka = ["missed_invalidations", "stale_reads", "extra_store_reads"].map { table.median(a, $0) }
            let kb = ["missed_invalidations", "stale_reads", "extra_store_reads"].map { table.median(b, $0) }
            return ka.lexicographicallyPrecedes(kb)
        }
        return "\n\(scenario)  (\(TextTable.spreadNote); ranked by median missed, stale reads, extra store reads)\n"
            + table.render(ranked) { i, _ in "\(i + 1)" }
    }
}
