import Records

/// One regression threshold: which values it looks at, the bound they must meet, and why.
///
/// Two kinds. *Deterministic* thresholds look at virtual-time (`sim`) records, which are exact,
/// so their bounds can be exact. *Hardware* thresholds look at `live` records and must bound
/// ratios measured in the same run (a strategy over the lock-free floor, Swift over C), never
/// absolute times, which move from machine to machine and from run to run.
public struct Threshold: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable { case deterministic, hardware }

    /// How repetitions are combined before comparing.
    public enum Aggregate: String, Codable, Sendable {
        /// Every repetition must satisfy the bound (paired by seed for comparisons).
        case all
        case median, max, min
    }

    public enum Operator: String, Codable, Sendable {
        case lt = "<"
        case le = "<="
        case eq = "=="
        case ge = ">="
        case gt = ">"

        public func holds(_ a: Double, _ b: Double) -> Bool {
            switch self {
            case .lt: a < b
            case .le: a <= b
            case .eq: a == b
            case .ge: a >= b
            case .gt: a > b
            }
        }
    }

    /// `value op bound`.
    public struct Bound: Codable, Hashable, Sendable {
        public var op: Operator
        public var value: Double
    }

    /// `value op factor × (the same metric of another variant, or another metric)`.
    public struct Comparison: Codable, Hashable, Sendable {
        public var op: Operator
        public var variant: String?
        public var metric: String?
        /// Multiplies the other side; 1 when absent.
        public var factor: Double?
        /// Factor values that differ on the other side (e.g. `client: read-c-loop`).
        public var factors: [String: String]?
    }

    public var id: String
    public var kind: Kind
    public var workload: String
    /// A scenario name, or `*` for every scenario in the results.
    public var scenario: String
    /// A variant name, or `*` for every variant in the results.
    public var variant: String
    /// Variants `*` leaves out (e.g. the unsynchronized control).
    public var excludeVariants: [String]?
    /// `sim` or `live`; by default `sim` for deterministic thresholds and `live` for hardware ones.
    /// A correctness invariant measured live (no lost updates) is deterministic but `live`.
    public var modeOverride: String?
    public var metric: String
    /// Only records whose factors include these pairs.
    public var factors: [String: String]?
    public var aggregate: Aggregate?
    public var bound: Bound?
    public var compare: Comparison?
    public var reason: String
    /// Why this threshold may select no result row in some runs (e.g. a live check on a folder
    /// the gated slices fill in virtual time only). Absent: a threshold whose workload is in the
    /// results but which selects no row there is an input error, since a typo'd scenario or
    /// variant name must not pass as "skipped".
    public var optional: String? = nil

    public var mode: String { modeOverride ?? (kind == .deterministic ? "sim" : "live") }

    enum CodingKeys: String, CodingKey {
        case id, kind, workload, scenario, variant
        case excludeVariants = "exclude_variants"
        case modeOverride = "mode"
        case
            metric, factors, aggregate, bound, compare, reason, optional
    }
}

/// The committed thresholds file (results/thresholds.json).
public struct ThresholdFile: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var thresholds: [Threshold]
    /// Live metrics the baseline comparison gates, with their tolerances.
    public var hardwareMetrics: [HardwareMetric]

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case thresholds
        case hardwareMetrics = "hardware_metrics"
    }
}

/// A live metric compared against the baseline over repetitions.
public struct HardwareMetric: Codable, Hashable, Sendable {
    public enum Direction: String, Codable, Sendable {
        case lowerIsBetter = "lower_is_better"
        case higherIsBetter = "higher_is_better"
    }

    public var workload: String
    public var metric: String
    /// Only this scenario (all when absent).
    public var scenario: String?
    /// Only records whose factors include these pairs (e.g. the uncontended cell).
    public var factors: [String: String]?
    /// A regression must be at least this large (relative change of the median, e.g. 0.15) …
    public var tolerance: Double
    /// … and statistically significant: one-sided Mann–Whitney U at `alpha` divided by the number
    /// of hardware comparisons in the run (Bonferroni), so that gating many cells does not
    /// multiply false alarms.
    public var alpha: Double
    public var direction: Direction
    public var reason: String
    /// Why this metric may select no live row in some runs; absent, a gated workload whose
    /// results hold no row this metric selects is an input error (see `Threshold.optional`).
    public var optional: String? = nil
}
