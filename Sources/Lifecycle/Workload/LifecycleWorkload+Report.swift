import Measurement
import Records

extension LifecycleWorkload {
    /// What the report keeps of a run while its items stream past: the items' notes and, as
    /// `records`, the live kill-during-save records (summed per strategy and checked), nothing of
    /// a sim item; the ranking reads the run's summaries.
    package typealias Kept = KeptForReport

    package func aggregate(_ kept: inout Kept, _ r: FinishedItem<Item, Sample>) {
        kept.notes += r.sample.notes
        guard configuration.mode == .live else { return }
        kept.records += records(of: [r]).filter { $0.scenario == "kill-during-save" }
    }

    package func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        var notes = kept.notes
        var table = LifecycleRanking.render(summaries: summaries, mode: "sim")
        var failure: BenchFailure?
        if configuration.mode == .live {
            table += LifecycleRanking.renderLive(records: kept.records)
            if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
            // The atomic strategies' guarantee: a kill never leaves a torn state (a variant's row
            // is held to its durability's).
            for r in kept.records where r.metric == "corrupt_launches" && r.value > 0 && r.factors["durability"] != "in-place" {
                failure = BenchFailure.runtime(
                    "\(r.variant): \(Int(r.value)) corrupt launches after kills (seed \(r.seed)): the atomic guarantee failed"
                )
            }
        }
        return WorkloadReport(table: table, notes: notes, failure: failure)
    }
}
