import Foundation

/// The JSON results file: the records of the CSV plus everything about the run that produced them.
public struct RunDocument: Codable, Hashable, Sendable {
    /// Bumped whenever a column or key changes meaning; readers refuse versions they do not know.
    /// Version 2 added `origin` (where each record's variant comes from). Version 3 types factor
    /// values like the CSV's columns (`"threads": 1`, not `"1"`: `FactorTypes`), and its runs'
    /// `--events` timelines carry the factor columns.
    public static let currentSchemaVersion = 3
    /// What readers accept: version 1 documents read with every record's origin `unknown`;
    /// versions 1 and 2 with factor values as text.
    public static let readableSchemaVersions: Set<Int> = [1, 2, 3]

    public var schemaVersion: Int
    public var runID: String
    public var workload: String
    /// UTC, ISO 8601 with seconds.
    public var createdUTC: String
    public var metadata: RunMetadata
    /// Names of the workload-specific factor columns, in CSV column order.
    public var factorNames: [String]
    public var records: [ResultRecord]
    /// Median and spread over repetitions, per (scenario, variant, mode, factors, metric).
    public var summaries: [SummaryRow]
    /// Live versus simulated values of the same metric for the same scenario, where both ran.
    public var comparisons: [Comparison]
    /// Warnings a reader must see (debug build, threads that did not run concurrently, …).
    public var notes: [String]
    /// False when the run was interrupted (SIGINT/SIGTERM) and wrote only the items that finished;
    /// bench-gate refuses such a document. Absent in older documents, which were always complete.
    public var complete: Bool
    /// How many matrix items the run planned (after sharding) and how many finished.
    public var plannedItems: Int?
    public var completedItems: Int?

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case runID = "run_id"
        case workload
        case createdUTC = "created_utc"
        case
            metadata
        case factorNames = "factor_names"
        case records, summaries, comparisons, notes, complete
        case
            plannedItems = "planned_items"
        case completedItems = "completed_items"
    }

    public init(
        runID: String,
        workload: String,
        createdUTC: String,
        metadata: RunMetadata,
        factorNames: [String],
        records: [ResultRecord],
        summaries: [SummaryRow],
        comparisons: [Comparison] = [],
        notes: [String] = [],
        complete: Bool = true,
        plannedItems: Int? = nil,
        completedItems: Int? = nil
    ) {
        self.schemaVersion = Self.currentSchemaVersion
        self.runID = runID
        self.workload = workload
        self.createdUTC = createdUTC
        self.metadata = metadata
        self.factorNames = factorNames
        self.records = records
        self.summaries = summaries
        self.comparisons = comparisons
        self.notes = notes
        self.complete = complete
        self.plannedItems = plannedItems
        self.completedItems = completedItems
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
        runID = try c.decode(String.self, forKey: .runID)
        workload = try c.decode(String.self, forKey: .workload)
        createdUTC = try c.decode(String.self, forKey: .createdUTC)
        metadata = try c.decode(RunMetadata.self, forKey: .metadata)
        factorNames = try c.decode([String].self, forKey: .factorNames)
        records = try c.decode([ResultRecord].self, forKey: .records)
        summaries = try c.decode([SummaryRow].self, forKey: .summaries)
        comparisons = try c.decode([Comparison].self, forKey: .comparisons)
        notes = try c.decode([String].self, forKey: .notes)
        complete = try c.decodeIfPresent(Bool.self, forKey: .complete) ?? true
        plannedItems = try c.decodeIfPresent(Int.self, forKey: .plannedItems)
        completedItems = try c.decodeIfPresent(Int.self, forKey: .completedItems)
    }

    public func encoded() throws -> Data { try Self.encoder(numericColumns: numericFactorColumns).encode(self) }

    /// The factor columns the JSON gives as numbers (`FactorTypes`): none before schema version 3
    /// (a document read from an older version, a baseline being replaced, keeps its text factors).
    public var numericFactorColumns: Set<String> {
        schemaVersion >= 3 ? FactorTypes.numericColumns(records.map(\.factors) + summaries.map(\.factors)) : []
    }

    /// The encoder of the JSON file, with the factor columns to write as numbers (also of its
    /// records when they are streamed: `ResultsStream`).
    public static func encoder(numericColumns: Set<String> = []) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if !numericColumns.isEmpty { encoder.userInfo[FactorTypes.numericColumnsKey] = numericColumns }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    public static func decode(_ data: Data) throws -> RunDocument {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(RunDocument.self, from: data)
    }
}

/// Median and spread of one metric over repetitions.
public struct SummaryRow: Codable, Hashable, Sendable {
    public var scenario: String
    public var variant: String
    public var mode: String
    @TypedFactors public var factors: [String: String]
    public var metric: String
    public var unit: String
    public var count: Int
    public var median: Double
    public var min: Double
    public var max: Double
    public var mean: Double
}

/// The schema's spelling (`factors` typed by `TypedFactors`). In an extension, so that the
/// memberwise initialiser stays synthesized.
extension SummaryRow {
    enum CodingKeys: String, CodingKey {
        case scenario, variant, mode, factors, metric, unit, count, median, min, max, mean
    }
}

/// One metric measured live beside its simulated value for the same scenario and variant.
public struct Comparison: Codable, Hashable, Sendable {
    public var scenario: String
    public var variant: String
    public var metric: String
    public var unit: String
    public var sim: Double
    public var live: Double
    /// live / sim, absent when sim is 0.
    public var ratio: Double?

    public init(scenario: String, variant: String, metric: String, unit: String, sim: Double, live: Double) {
        self.scenario = scenario
        self.variant = variant
        self.metric = metric
        self.unit = unit
        self.sim = sim
        self.live = live
        self.ratio = sim != 0 ? live / sim : nil
    }
}
