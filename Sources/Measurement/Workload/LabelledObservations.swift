/// Observations of one (scenario, variant, mode, seed, repetition, factors) cell: a record group
/// before it is stamped with the run's identity (run id, workload, host).
public struct LabelledObservations: Sendable, Hashable {
    public var scenario: String
    public var variant: String
    /// `sim` or `live`.
    public var mode: String
    public var seed: UInt64
    public var repetition: Int
    public var factors: [String: String]
    public var observations: [Observation]

    public init(
        scenario: String,
        variant: String,
        mode: String,
        seed: UInt64,
        repetition: Int,
        factors: [String: String] = [:],
        observations: [Observation]
    ) {
        self.scenario = scenario
        self.variant = variant
        self.mode = mode
        self.seed = seed
        self.repetition = repetition
        self.factors = factors
        self.observations = observations
    }
}
