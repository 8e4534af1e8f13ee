import Measurement

extension ReadinessWorkload {
    /// The metrics compared live against simulated.
    package static let comparedMetrics = [
        "t_app_ready_ms", "t_ui_ready_ms", "ready_turn_ms", "polite_drain_ms", "main_max_stall_ms",
        "input_latency_p50_ms", "input_latency_p99_ms", "missed_frames", "overtakes", "polite_before_ui", "wasted_slots",
    ]

    package func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        let records = records(of: results)
        var notes = skipped + results.flatMap(\.sample.notes)
        guard configuration.mode == .live else {
            return WorkloadReport(table: ReadinessRanking.render(records: records, mode: "sim"), notes: notes)
        }
        var comparisons: [Comparison] = []
        for r in results {
            guard let live = r.sample.live, !r.sample.sim.isEmpty else { continue }
            comparisons += Comparison.pairs(
                scenario: "\(r.item.scenario.rawValue)/\(Self.globalsName(r.item))",
                variant: Self.variantName(r.item),
                sim: r.sample.sim,
                live: live,
                metrics: Self.comparedMetrics
            )
        }
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        notes.append("live timings share the machine with whatever else runs: compare ratios within this run")
        var table = ReadinessRanking.render(records: records, mode: "live") + ReadinessRanking.renderProbes(records: records)
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
