import Measurement
import Records

extension ReadinessWorkload {
    /// The metrics compared live against simulated.
    package static let comparedMetrics = [
        "t_app_ready_ms", "t_ui_ready_ms", "ready_turn_ms", "polite_drain_ms", "main_max_stall_ms",
        "input_latency_p50_ms", "input_latency_p99_ms", "missed_frames", "overtakes", "polite_before_ui", "wasted_slots",
    ]

    /// What the report keeps of a run while its items stream past: the items' notes, the live
    /// comparisons and, as `records`, the live-only probes' records (summed by `renderProbes`) —
    /// never a launch's records, which the ranking reads from the run's summaries.
    package typealias Kept = KeptForReport

    package func aggregate(_ kept: inout Kept, _ r: FinishedItem<Item, Sample>) {
        kept.notes += r.sample.notes
        if r.item.scenario.isLiveOnly { kept.records += records(of: [r]) }
        guard configuration.mode == .live, let live = r.sample.live, !r.sample.sim.isEmpty else { return }
        kept.comparisons += Comparison.pairs(
            scenario: "\(r.item.scenario.rawValue)/\(Self.globalsName(r.item))",
            variant: Self.variantName(r.item),
            sim: r.sample.sim,
            live: live,
            metrics: Self.comparedMetrics
        )
    }

    package func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        var notes = skipped + kept.notes
        guard configuration.mode == .live else {
            return WorkloadReport(table: ReadinessRanking.render(summaries: summaries, mode: "sim"), notes: notes)
        }
        let comparisons = kept.comparisons
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        notes.append("live timings share the machine with whatever else runs: compare ratios within this run")
        var table =
            ReadinessRanking.render(summaries: summaries, mode: "live") + ReadinessRanking.renderProbes(records: kept.records)
        if !comparisons.isEmpty { table += "\n" + Self.comparisonTable(comparisons) }
        return WorkloadReport(table: table, comparisons: comparisons, notes: notes)
    }

    static func comparisonTable(_ comparisons: [Comparison]) -> String {
        Comparison.table(
            comparisons,
            shown: ["t_ui_ready_ms", "polite_drain_ms", "input_latency_p99_ms", "missed_frames"],
            caption: "live versus simulated (same plan and seed)"
        )
    }
}
