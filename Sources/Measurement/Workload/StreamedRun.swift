import Records

/// A small quick matrix run in this process and streamed as the driver streams it: for tests of a
/// workload's fold and report, which compare what the fold keeps, for one `--seeds` count and
/// another, with what the records of every item give.
///
/// Each workload's aggregate test writes only what differs: how its workload is configured and
/// what its fold holds.
package struct StreamedRun<W: Workload> {
    package let workload: W
    /// Every item, run in canonical order (`Workload.runEveryItem`).
    package let results: [FinishedItem<W.Item, W.Sample>]
    /// What the fold kept, the summaries of every record, and the report from the two.
    package let kept: W.Aggregate
    package let summaries: [SummaryRow]
    package let report: WorkloadReport

    /// Runs the workload `make` builds of the suite's own variants for `scenarios` over `seeds`
    /// seeds (quick).
    package init<Variant: BuiltInVariants>(scenarios: [String], seeds: Int, _ make: (WorkloadEnvironment<Variant>) throws -> W) throws {
        workload = try make(WorkloadEnvironment(selection: MatrixSelection(scenarios: scenarios, seedCount: seeds, quick: true)))
        results = try workload.runEveryItem()
        (kept, summaries, report) = try workload.streamed(results)
    }

    /// The records of every item: what the report read before it folded.
    package var records: [ResultRecord] { workload.records(of: results) }
}
