import Records

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

extension LabelledObservations {
    /// One item's groups in the modes it ran in: the simulated observations, then the live ones,
    /// labelled alike but for `mode` (nil: the item did not run in that mode).
    package static func simAndLive(
        scenario: String,
        variant: String,
        seed: UInt64,
        repetition: Int,
        factors: [String: String] = [:],
        sim: [Observation]?,
        live: [Observation]?
    ) -> [LabelledObservations] {
        [("sim", sim), ("live", live)].compactMap { mode, observations in
            observations.map {
                LabelledObservations(
                    scenario: scenario,
                    variant: variant,
                    mode: mode,
                    seed: seed,
                    repetition: repetition,
                    factors: factors,
                    observations: $0
                )
            }
        }
    }
}

extension Sequence<LabelledObservations> {
    /// The groups as records of `workload`, not yet stamped with a run's id and host: what a
    /// report summarises and ranks (`Statistics.summarize`) before the driver writes the real ones.
    public func records(workload: String) -> [ResultRecord] {
        flatMap { g in
            g.observations.map { o in
                ResultRecord(
                    runID: "",
                    workload: workload,
                    scenario: g.scenario,
                    variant: g.variant,
                    mode: g.mode,
                    seed: g.seed,
                    repetition: g.repetition,
                    metric: o.metric,
                    value: o.value,
                    unit: o.unit,
                    host: "",
                    factors: g.factors
                )
            }
        }
    }
}

extension Workload {
    /// Every finished item's observations as unstamped records (see `records(workload:)`).
    public func records(of results: [FinishedItem<Item, Sample>]) -> [ResultRecord] {
        results.flatMap { observations(for: $0.item, sample: $0.sample) }.records(workload: Self.name)
    }
}
