/// The default aggregate: every finished item, handed to `report(_:complete:)`.
///
/// Right for a workload whose items are few or whose samples are small (a live run, a matrix of
/// threads); a workload with many seeds of a large sample folds instead (bench-throttle's
/// `ThrottleTotals`), since whatever it keeps per item grows with `--seeds`.
extension Workload where Aggregate == [FinishedItem<Item, Sample>] {
    public var emptyAggregate: Aggregate { [] }

    public func aggregate(_ aggregate: inout Aggregate, _ finished: FinishedItem<Item, Sample>) {
        aggregate.append(finished)
    }

    public func report(_ aggregate: Aggregate, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        try report(aggregate, complete: complete)
    }
}
