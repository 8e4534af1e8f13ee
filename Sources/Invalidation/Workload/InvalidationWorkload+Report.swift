import Foundation
import Measurement
import Records

extension InvalidationWorkload {
    /// The metrics compared live against simulated.
    public static let comparedMetrics = [
        "stale_reads", "stale_read_pct", "staleness_p50_ms", "staleness_p99_ms", "staleness_max_ms",
        "ui_refresh_latency_p99_ms", "evacuations_per_s", "missed_invalidations", "coalescing_ratio", "hit_ratio",
        "extra_store_reads", "foreign_commits", "handler_runs", "share_stale_reads",
    ]

    /// What the report keeps of a run while its items stream past: the live-versus-simulated
    /// comparisons, nothing of a sim item — each tally's staleness samples grew a run's peak with
    /// `--seeds`; the ranking reads the run's summaries instead.
    public typealias Kept = KeptForReport

    public func aggregate(_ kept: inout Kept, _ r: FinishedItem<Item, Sample>) {
        guard configuration.mode == .live, let live = r.sample.live else { return }
        kept.comparisons += r.item.comparisons(sim: r.sample.sim.observations, live: live.observations, metrics: Self.comparedMetrics)
    }

    public func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        let names = scenarios.map(\.name)
        guard configuration.mode == .live else {
            return WorkloadReport(table: InvalidationRanking.render(summaries: summaries, scenarios: names))
        }
        let comparisons = kept.comparisons
        var notes: [String] = []
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        notes.append("live: real processes share the machine with other work; delivery delays and coalescing are the OS's, not the model's")
        let table =
            InvalidationRanking.render(summaries: summaries.filter { $0.mode == "live" }, scenarios: names)
            + "\n" + Self.comparisonTable(comparisons)
        return WorkloadReport(table: table, comparisons: comparisons, notes: notes)
    }

    static func comparisonTable(_ comparisons: [Comparison]) -> String {
        Comparison.table(
            comparisons,
            shown: ["stale_reads", "missed_invalidations", "staleness_p99_ms", "coalescing_ratio", "hit_ratio", "extra_store_reads"],
            caption: "live versus simulated (same scenario, seed and plan)"
        )
    }
}
