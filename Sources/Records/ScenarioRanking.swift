/// A workload's end-of-run table ranked per scenario, with the loop written once: for each
/// scenario of the run (in the order given) that has summaries, a `SummaryTable` of its rows in the
/// ranking's columns, headed and ranked by the workload.
///
/// A conforming type passes only what differs — its columns and how one scenario's variants rank
/// (`InvalidationRanking`: correctness first, then cost; `ThrottleRanking`: Pareto layers).
public protocol ScenarioRanking {
    /// The metric columns, in order.
    static var columns: [SummaryTable.Column] { get }

    /// One scenario's heading line and ranked table; `table` holds that scenario's summaries (at
    /// least one variant) in `columns`.
    static func section(_ scenario: String, table: SummaryTable) -> String
}

extension ScenarioRanking {
    /// The table from a run's records (summarised here).
    public static func render(records: [ResultRecord], scenarios: [String]) -> String {
        render(summaries: Statistics.summarize(records), scenarios: scenarios)
    }

    /// The table from a run's summaries (`Statistics.summarize` of its records, of one mode): one
    /// section per scenario of `scenarios` with any summary, in that order.
    public static func render(summaries: [SummaryRow], scenarios: [String]) -> String {
        var out = ""
        for scenario in scenarios {
            let table = SummaryTable(rows: summaries.filter { $0.scenario == scenario }, columns: columns)
            guard !table.variants.isEmpty else { continue }
            out += section(scenario, table: table)
        }
        return out
    }
}
