import Foundation
import Measurement
import Simulation
import Timelines

/// bench-invalidation as a `Workload`: every (scenario, seed, variant) is one item, simulated in
/// virtual time, or — in live mode — also run as three real processes on a real SQLite database.
public struct InvalidationWorkload: FoldingWorkload, MatrixWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    public typealias Variant = InvalidationVariant
    /// The scenarios `--scenario` chooses from (`matrix.scenarios`).
    public typealias Scenario = InvalidationScenario

    /// One (scenario, seed, variant) of the matrix.
    public typealias Item = MatrixCell<InvalidationScenario, InvalidationVariant>

    public struct Sample: Sendable {
        public var sim: InvalidationTally
        public var live: InvalidationTally?
        /// The simulation's timeline; empty unless the workload records timelines.
        public var simTrace: [TraceEvent] = []
    }

    public static let name = "invalidation"
    public let configuration: InvalidationConfiguration
    public let environment: Environment
    /// The scenarios (with the configuration's overrides), variants, seeds and items of the run.
    public let matrix: Matrix
    public var factorNames: [String] { [] }

    public init(
        configuration: InvalidationConfiguration,
        environment: Environment = Environment()
    ) throws {
        self.configuration = configuration
        self.environment = environment
        let selection = environment.selection
        if configuration.mode == .live, configuration.childCommand.isEmpty {
            throw BenchFailure.usage("--mode live needs the child command line (the harness starts the same binary in child roles)")
        }
        if configuration.mode == .sim, configuration.liveDirectory != nil {
            throw BenchFailure.usage("--live-dir applies to --mode live only")
        }
        // Live runs take real time: by default the scenario where the designs differ most.
        let requested = selection.scenarios.isEmpty && configuration.mode == .live ? ["concurrent-writers"] : selection.scenarios
        var matrix = try Matrix(
            environment,
            scenarios: InvalidationScenario.catalogue,
            requested: requested,
            seeds: configuration.mode == .live ? 1 : 3
        )
        matrix.scenarios = matrix.scenarios.map { s in
            var copy = s
            if let d = configuration.duration {
                copy.duration = .seconds(d)
            } else if configuration.mode == .live {
                copy.duration = .seconds(6)
            } else if selection.quick {
                copy = copy.scaled(by: 0.25)
            }
            if let j = configuration.deliveryJitterMs { copy.deliveryJitterMean = .milliseconds(j) }
            if let c = configuration.cacheCapacity {
                copy.mainCacheCapacity = c
                copy.shareCacheCapacity = c
            }
            return copy
        }
        self.matrix = matrix.withCells()
    }

    public func label(_ item: Item) -> String {
        "\(item.scenario.name) \(item.variant.rawValue) seed \(item.seed)\(configuration.mode == .live ? " live" : "")"
    }

    public func timing(_ item: Item) -> ItemTiming {
        configuration.mode == .live ? .real : .virtual
    }

    var debounce: SimDuration { .seconds(configuration.debounceSeconds) }

    public func run(_ item: Item) throws -> Sample {
        let plan = InvalidationPlan(scenario: item.scenario, seed: item.seed)
        let (sim, trace, violation) = InvalidationSimulation.record(
            variant: item.variant,
            scenario: item.scenario,
            plan: plan,
            seed: item.seed,
            debounceInterval: debounce,
            trace: recordTimeline
        )
        if let violation { throw violation }
        guard configuration.mode == .live else { return Sample(sim: sim, live: nil, simTrace: trace) }
        let live = try LiveInvalidationRun(
            variant: item.variant,
            plan: plan,
            debounceInterval: debounce,
            childCommand: configuration.childCommand,
            directory: configuration.liveDirectory.map { "\($0)/\(item.scenario.name)-\(item.variant.rawValue)-seed\(item.seed)" }
        ).run()
        if let violation = live.contractViolation(mode: "live") { throw violation }
        return Sample(sim: sim, live: live, simTrace: trace)
    }

    public func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        item.labelled(sim: sample.sim.observations, live: sample.live?.observations)
    }
}
