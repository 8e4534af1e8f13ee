import Records

/// What a workload says about a whole run, computed from its typed samples.
public struct WorkloadReport: Sendable {
    /// The summary printed on stdout in `--format table` (rankings, verdicts, comparisons).
    public var table: String
    /// Records derived from several items (e.g. ratios to a reference measured in the same run).
    public var derived: [LabelledObservations]
    /// Live versus simulated values, where both ran.
    public var comparisons: [Comparison]
    /// Warnings a reader must see; they go to the JSON and after the table.
    public var notes: [String]
    /// Parameters only known after the run (measured calibration, wall time, events per second).
    public var parameters: [String: JSONValue]
    /// Set when the run must fail after its files are written (a violated guarantee).
    public var failure: BenchFailure?

    public init(
        table: String,
        derived: [LabelledObservations] = [],
        comparisons: [Comparison] = [],
        notes: [String] = [],
        parameters: [String: JSONValue] = [:],
        failure: BenchFailure? = nil
    ) {
        self.table = table
        self.derived = derived
        self.comparisons = comparisons
        self.notes = notes
        self.parameters = parameters
        self.failure = failure
    }
}
