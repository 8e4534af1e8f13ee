import Records

/// What a `FoldingWorkload`'s report keeps of a run while its items stream past, when it needs
/// beyond the run's summaries only the items' notes, their live-versus-simulated comparisons and
/// the records of the few items it reads whole (live-only probes, kill runs): never the records of
/// the items its tables read from the summaries, so a run's memory does not grow with `--seeds`.
///
/// Readiness, lifecycle and invalidation each declared these same lists as a `Kept` of their own;
/// a workload whose report keeps something else (totals, verdicts, a rendered table) still does.
public struct KeptForReport: Sendable {
    /// The items' notes, in canonical order.
    public var notes: [String] = []
    /// The live-versus-simulated comparisons of the items that ran live.
    public var comparisons: [Comparison] = []
    /// The records of the items the report reads whole rather than from the summaries.
    public var records: [ResultRecord] = []

    /// Nothing kept yet.
    public init() {}
}

extension FoldingWorkload where Aggregate == KeptForReport {
    /// Nothing kept before the first item finishes.
    public var emptyAggregate: KeptForReport { KeptForReport() }
}
