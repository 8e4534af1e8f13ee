import Measurement

extension LifecycleWorkload {
    package func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        let records = records(of: results)
        var notes = results.flatMap(\.sample.notes)
        var table = LifecycleRanking.render(records: records, mode: "sim")
        var failure: BenchFailure?
        if configuration.mode == .live {
            table += LifecycleRanking.renderLive(records: records)
            if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
            // The atomic strategies' guarantee: a kill never leaves a torn state.
            for r in records
            where r.scenario == "kill-during-save" && r.metric == "corrupt_launches" && r.value > 0 && r.variant != "in-place" {
                failure = BenchFailure.runtime(
                    "\(r.variant): \(Int(r.value)) corrupt launches after kills (seed \(r.seed)): the atomic guarantee failed"
                )
            }
        }
        return WorkloadReport(table: table, notes: notes, failure: failure)
    }
}
