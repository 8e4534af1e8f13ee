/// One measured value: the row of the tidy (long) results table every workload writes.
///
/// This type and `RunDocument` are the single definition of the results schema; the CSV columns,
/// the JSON keys and `results/README.md` all follow from them.
public struct ResultRecord: Codable, Hashable, Sendable {
    public var runID: String
    public var workload: String
    public var scenario: String
    public var variant: String
    /// Where the variant comes from (`VariantOrigin`: signal, article, ours, platform, reference,
    /// user); empty for rows that belong to no variant. Read as `unknown` from schema version 1.
    public var origin: String
    /// `sim` (virtual time, deterministic) or `live` (real threads and clocks).
    public var mode: String
    public var seed: UInt64
    /// Repetition index within (scenario, variant, mode): 0, 1, …
    public var repetition: Int
    public var metric: String
    public var value: Double
    public var unit: String
    /// The host that measured it, so merged results from several machines stay distinguishable.
    public var host: String
    /// Workload-specific factors (e.g. `threads` for atomics, `client` for clocks), one CSV
    /// column each; the set of keys is fixed per workload and documented in results/README.md.
    /// Kept as the CSV's text; the JSON types a numeric column as numbers (`TypedFactors`).
    @TypedFactors public var factors: [String: String]

    public init(
        runID: String,
        workload: String,
        scenario: String,
        variant: String,
        mode: String,
        seed: UInt64,
        repetition: Int,
        metric: String,
        value: Double,
        unit: String,
        host: String,
        factors: [String: String] = [:],
        origin: String = ""
    ) {
        self.runID = runID
        self.workload = workload
        self.scenario = scenario
        self.variant = variant
        self.origin = origin
        self.mode = mode
        self.seed = seed
        self.repetition = repetition
        self.metric = metric
        self.value = value
        self.unit = unit
        self.host = host
        self.factors = factors
    }

    enum CodingKeys: String, CodingKey {
        case runID = "run_id"
        case workload, scenario, variant, origin, mode, seed, repetition, metric, value, unit, host, factors
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        runID = try c.decode(String.self, forKey: .runID)
        workload = try c.decode(String.self, forKey: .workload)
        scenario = try c.decode(String.self, forKey: .scenario)
        variant = try c.decode(String.self, forKey: .variant)
        // Schema version 1 had no origin: such records read as `unknown`, so old and new runs still
        // compare (the gate's cells never include the origin).
        origin = try c.decodeIfPresent(String.self, forKey: .origin) ?? "unknown"
        mode = try c.decode(String.self, forKey: .mode)
        seed = try c.decode(UInt64.self, forKey: .seed)
        repetition = try c.decode(Int.self, forKey: .repetition)
        metric = try c.decode(String.self, forKey: .metric)
        value = try c.decode(Double.self, forKey: .value)
        unit = try c.decode(String.self, forKey: .unit)
        host = try c.decode(String.self, forKey: .host)
        _factors = try c.decode(TypedFactors.self, forKey: .factors)
    }
}

/// A measured value before it is stamped with the run's identity: what a workload produces.
/// Codable so that an item run in a child process (`IsolatingWorkload`) can hand its sample back.
public struct Observation: Hashable, Sendable, Codable {
    /// The metric's snake_case name, ending in its unit where it has one (`latency_p99_ms`).
    public var metric: String
    /// The measured value.
    public var value: Double
    /// Its unit (`ms`, `rows`, …).
    public var unit: String

    /// An observation of `metric`.
    public init(_ metric: String, _ value: Double, _ unit: String) {
        self.metric = metric
        self.value = value
        self.unit = unit
    }
}
