import Records

/// A workload whose aggregate is every finished item: it writes its report from the whole list.
///
/// Right for a workload whose items are few or whose samples are small (a live run, a matrix of
/// threads); a workload with many seeds of a large sample folds instead (`FoldingWorkload`,
/// bench-throttle's `ThrottleTotals`), since whatever it keeps per item grows with `--seeds`.
///
/// The two report paths are separate protocols so that they cannot call each other: this one's
/// `report(_:summaries:complete:)` calls the list report, which has no default and no other
/// protocol provides (`FoldingWorkload`'s replay over a list is `replayedReport`, not a
/// requirement), so every conforming type writes it itself.
public protocol ItemKeepingWorkload: Workload where Aggregate == [FinishedItem<Item, Sample>] {
    /// The run's report over the finished items, in canonical order. `complete` is false when the
    /// run was interrupted and `results` holds only what finished.
    func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport
}

extension ItemKeepingWorkload {
    public var emptyAggregate: Aggregate { [] }

    public func aggregate(_ aggregate: inout Aggregate, _ finished: FinishedItem<Item, Sample>) {
        aggregate.append(finished)
    }

    public func report(_ aggregate: Aggregate, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        try report(aggregate, complete: complete)
    }
}

/// A whole small matrix at once, as the driver would stream it: for tests of a workload's fold and
/// report, which compare what the fold keeps with what every record gives.
extension Workload {
    /// Every item run in canonical order, in this process (no isolation, nothing written).
    package func runEveryItem() throws -> [FinishedItem<Item, Sample>] {
        try items.enumerated().map { FinishedItem(index: $0, item: $1, sample: try run($1)) }
    }

    /// `results` folded one by one, as the driver folds items while they stream past.
    package func folded(_ results: [FinishedItem<Item, Sample>]) -> Aggregate {
        var kept = emptyAggregate
        for finished in results { aggregate(&kept, finished) }
        return kept
    }

    /// What the driver ends with for `results`: the fold, the summaries of every record, and the
    /// report it gives from the two.
    package func streamed(
        _ results: [FinishedItem<Item, Sample>]
    ) throws -> (kept: Aggregate, summaries: [SummaryRow], report: WorkloadReport) {
        let kept = folded(results)
        let summaries = Statistics.summarize(records(of: results))
        return (kept, summaries, try report(kept, summaries: summaries, complete: true))
    }
}
