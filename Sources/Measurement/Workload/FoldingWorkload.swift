import Records

/// A workload whose report folds each finished item into an aggregate of its own (totals, the
/// live comparisons) and reads the rest from the run's summaries, instead of keeping every item
/// (`ItemKeepingWorkload`).
///
/// It writes `report(_:summaries:complete:)` itself: no protocol gives a folding workload a
/// default for it, so its report cannot end up calling another report that calls it back.
/// `replayedReport(_:complete:)` over a whole list of finished items is then the driver's
/// streaming path replayed — fold them one by one, summarise their records, report from the two —
/// for tests, written here once rather than in each such workload.
public protocol FoldingWorkload: Workload {}

extension FoldingWorkload {
    /// The report the driver would give after streaming `results`: the fold of every item and the
    /// summaries of every record.
    public func replayedReport(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        try report(folded(results), summaries: Statistics.summarize(records(of: results)), complete: complete)
    }
}
