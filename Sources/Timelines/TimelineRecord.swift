import Records

/// One event on a run's timeline: the `--events` file, a second tidy table beside the results.
///
/// This type is the single definition of the timeline's columns (documented in results/README.md
/// with the results schema). Every workload writes one row per `TraceEvent` of its items (`track`,
/// `kind`, `value`; `cost_ms` is a slice's duration); bench-throttle's update rows also fill `rows`,
/// `reset` and `frame_lateness_ms`.
public struct TimelineRecord: Codable, Hashable, Sendable {
    public var runID: String
    public var workload: String
    public var scenario: String
    public var variant: String
    /// `sim` or `live`: a live run writes its live timeline.
    public var mode: String
    public var seed: UInt64
    public var repetition: Int
    /// When the event happened, in ms since the start of the item's run (virtual or real).
    public var timeMs: Double
    /// What happened, e.g. `update`.
    public var event: String
    /// How many rows (items of work) the event covered.
    public var rows: Int
    /// Whether the event was a full reset (reload) rather than an incremental update.
    public var reset: Bool
    /// What it cost on the thread that ran it, in ms.
    public var costMs: Double
    /// How late the frame that showed it was, in ms; nil when no frame showed it (yet).
    public var frameLatenessMs: Double?
    /// The actor (thread track) or counter the event belongs to (`main`, `writer`, `pending rows`).
    public var track: String
    /// `slice`, `instant` or `counter`.
    public var kind: String
    /// A counter's value, or a slice's or instant's magnitude; nil when it has none.
    public var value: Double?
    /// The item's factor values, the same as its results rows' (`ResultRecord.factors`), so an
    /// events row joins to its results rows; the driver stamps them (`stampFactors`).
    public var factors: [String: String] = [:]

    public init(
        runID: String = "",
        workload: String = "",
        scenario: String,
        variant: String,
        mode: String,
        seed: UInt64,
        repetition: Int,
        timeMs: Double,
        event: String,
        rows: Int,
        reset: Bool,
        costMs: Double,
        frameLatenessMs: Double?,
        track: String = "main",
        kind: String = "slice",
        value: Double? = nil
    ) {
        self.runID = runID
        self.workload = workload
        self.scenario = scenario
        self.variant = variant
        self.mode = mode
        self.seed = seed
        self.repetition = repetition
        self.timeMs = timeMs
        self.event = event
        self.rows = rows
        self.reset = reset
        self.costMs = costMs
        self.frameLatenessMs = frameLatenessMs
        self.track = track
        self.kind = kind
        self.value = value
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id"
        case workload, scenario, variant, mode, seed, repetition
        case timeMs = "time_ms"
        case event, rows,
            reset
        case costMs = "cost_ms"
        case frameLatenessMs = "frame_lateness_ms"
        case track, kind, value, factors
    }

    /// The columns before the factor columns, as in the results CSV (without its `origin`).
    public static let leadingColumns = ["run_id", "workload", "scenario", "variant", "mode", "seed", "repetition"]
    /// The columns after the factor columns.
    public static let trailingColumns = [
        "time_ms", "event", "rows", "reset", "cost_ms", "frame_lateness_ms", "track", "kind", "value",
    ]

    /// The CSV header, in column order: the workload's factor columns (named and spelled as in the
    /// results CSV) follow `repetition`, as they do there. Results schema version 2 wrote none.
    public static func csvHeader(factorNames: [String]) -> String {
        (leadingColumns + factorNames + trailingColumns).joined(separator: ",")
    }

    /// The timeline as CSV, one row per record.
    public static func csv(_ records: [TimelineRecord], factorNames: [String] = []) -> String {
        csvHeader(factorNames: factorNames) + "\n" + csvRows(records, factorNames: factorNames)
    }

    /// The CSV rows of `records`, without the header: what a stream appends item by item.
    ///
    /// The number columns are spelled as floats (`CSVWriter.float`), an absent value as `NaN`: a
    /// column that is absent in every row (bench-throttle's `value`) still reads as a float, not
    /// as text, in pandas, polars and DuckDB.
    public static func csvRows(_ records: [TimelineRecord], factorNames: [String] = []) -> String {
        var text = ""
        for r in records {
            let lateness = CSVWriter.float(r.frameLatenessMs ?? .nan)
            text += "\(CSVWriter.escape(r.runID)),\(CSVWriter.escape(r.workload)),\(CSVWriter.escape(r.scenario)),"
            text += "\(CSVWriter.escape(r.variant)),\(r.mode),\(r.seed),\(r.repetition),"
            for name in factorNames { text += CSVWriter.escape(r.factors[name] ?? "") + "," }
            text += "\(CSVWriter.float(r.timeMs)),"
            text += "\(CSVWriter.escape(r.event)),\(r.rows),\(r.reset ? 1 : 0),\(CSVWriter.float(r.costMs)),\(lateness),"
            text += "\(CSVWriter.escape(r.track)),\(r.kind),\(CSVWriter.float(r.value ?? .nan))\n"
        }
        return text
    }
}
