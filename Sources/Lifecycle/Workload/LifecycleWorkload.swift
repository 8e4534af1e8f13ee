import Foundation
import Measurement
import Records
import Simulation
import Timelines

/// bench-lifecycle as a `Workload`: every (scenario, variant, seed) is one item — the variant's
/// strategy run through the scenario's sessions in virtual time. Live mode adds `kill-during-save`:
/// a real child process saving the way a strategy does, killed by the harness at random instants
/// and relaunched to verify what storage holds — one item per variant of the run (its row labelled
/// with the variant, its `durability` factor its durability), and one per durability strategy,
/// labelled with the durability, as the reference every variant's row compares with.
package struct LifecycleWorkload: FoldingWorkload, MatrixWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    package typealias Variant = LifecycleVariant
    /// The scenarios `--scenario` chooses from (`matrix.scenarios`).
    package typealias Scenario = LifecycleScenario

    package struct Item: MatrixItem {
        package var scenario: LifecycleScenario
        /// The strategy; nil for a live durability item.
        package var variant: LifecycleVariant?
        /// Live: the durability strategy under kills (the variant's own, for a variant's live item).
        package var durability: LifecyclePolicy.Durability?
        package var seed: UInt64
        package var repetition: Int

        /// A live item's scenario is `kill-during-save`; a durability item's variant is the durability.
        package var scenarioName: String { durability == nil ? scenario.rawValue : "kill-during-save" }
        package var variantName: String { variant?.name ?? durability!.rawValue }
    }

    package struct Sample: Sendable, Codable {
        package var observations: [Observation]
        package var mode: String
        package var notes: [String] = []
        package var trace: [TraceEvent] = []
    }

    package static let name = "lifecycle"
    package let configuration: LifecycleConfiguration
    package let environment: Environment
    /// The scenarios, variants, seeds and items of the run (live: and the durability items).
    package let matrix: Matrix
    /// The `--trace` file's transitions (nil without `--trace`).
    let recorded: TransitionTrace.Recorded?
    package var factorNames: [String] { ["durability"] }

    package init(
        configuration: LifecycleConfiguration,
        environment: Environment = Environment()
    ) throws(BenchFailure) {
        self.configuration = configuration
        self.environment = environment
        let live = configuration.mode == .live
        let generated = LifecycleScenario.allCases.filter { $0 != .trace }
        var requested = environment.selection.scenarios
        if requested.isEmpty { requested = configuration.tracePath != nil ? ["trace"] : generated.map(\.rawValue) }
        var matrix = try Matrix(
            environment,
            scenarios: LifecycleScenario.allCases,
            requested: requested,
            name: \.rawValue,
            seeds: live ? 1 : 3
        )
        if matrix.scenarios.contains(.trace), configuration.tracePath == nil {
            throw BenchFailure.usage("--scenario trace needs --trace FILE")
        }
        if configuration.tracePath != nil, !matrix.scenarios.contains(.trace) {
            throw BenchFailure.usage("--trace replays its file as --scenario trace: add it to --scenario or drop --trace")
        }
        if live, configuration.tracePath != nil {
            throw BenchFailure.usage("--trace runs in --mode sim only (live kills a real process at random instants inside saves)")
        }
        if live, configuration.childCommand.isEmpty {
            throw BenchFailure.usage("--mode live needs a child command line to run the app in")
        }
        // Read and checked here, once: a bad file fails before the run makes its folder, and the
        // items (one per seed and variant) do not each read it again.
        recorded = try configuration.tracePath.map { path throws(BenchFailure) in try TransitionTrace.read(path: path) }
        for (repetition, seed) in matrix.seeds.enumerated() {
            for scenario in matrix.scenarios {
                for v in matrix.variants {
                    matrix.items.append(Item(scenario: scenario, variant: v, durability: nil, seed: seed, repetition: repetition))
                }
            }
            if live {
                for v in matrix.variants {
                    let item = Item(scenario: .everyday, variant: v, durability: v.policy.durability, seed: seed, repetition: repetition)
                    matrix.items.append(item)
                }
                for d in LifecyclePolicy.Durability.allCases {
                    matrix.items.append(Item(scenario: .everyday, variant: nil, durability: d, seed: seed, repetition: repetition))
                }
            }
        }
        guard !matrix.items.isEmpty else { throw BenchFailure.usage("the selection is empty") }
        self.matrix = matrix
    }

    package var sessionCount: Int { configuration.sessions ?? (selection.quick ? 40 : 200) }
    package var killCount: Int { configuration.kills ?? (selection.quick ? 10 : 40) }

    package func label(_ item: Item) -> String {
        item.durability.map { d in
            "kill-during-save \(item.variant.map { "\($0.name) (\(d.rawValue))" } ?? d.rawValue) seed \(item.seed) live"
        }
            ?? "\(item.scenario.rawValue) \(item.variantName) seed \(item.seed)"
    }

    package func timing(_ item: Item) -> ItemTiming { item.durability == nil ? .virtual : .real }

    /// The sessions of an item: generated from its seed, or the `--trace` file's.
    package func sessions(_ item: Item) throws(BenchFailure) -> [SessionScript] {
        if item.scenario == .trace {
            return recorded!.scripts(profile: configuration.profile, seed: item.seed)
        }
        return SessionGenerator.sessions(sessionCount, shape: item.scenario.shape, profile: configuration.profile, seed: item.seed)
    }

    package func run(_ item: Item) throws -> Sample {
        if let durability = item.durability {
            // The model's kill points: the everyday sessions of the item's strategy, or for a
            // durability item of the suite's strategy that saves this way (Signal's for the
            // durabilities none of them uses).
            let strategy =
                item.variant ?? LifecycleVariant.builtIn.first { $0.policy.durability == durability } ?? LifecycleVariant.signal
            let sessions = SessionGenerator.sessions(
                sessionCount,
                shape: LifecycleScenario.everyday.shape,
                profile: configuration.profile,
                seed: item.seed
            )
            let model = LifecycleSimulation(policy: strategy.policy, rules: configuration.rules, profile: configuration.profile).run(
                sessions
            )
            if let violation = model.violation { throw violation }
            let points = model.kills
            let result = try LiveKillHarness(
                command: configuration.childCommand,
                durability: durability,
                kills: killCount,
                seed: item.seed,
                directory: configuration.liveDirectory,
                suspendedAtKill: points.map(\.suspended)
            ).recording(recordTimeline).run()
            return Sample(observations: result.observations, mode: "live", notes: result.notes, trace: recordTimeline ? result.trace : [])
        }
        let simulation = LifecycleSimulation(
            policy: item.variant!.policy,
            rules: configuration.rules,
            profile: configuration.profile,
            record: recordTimeline
        )
        let outcome = simulation.run(try sessions(item))
        if let violation = outcome.violation { throw violation }
        return Sample(
            observations: outcome.tally.observations(limitMB: configuration.rules.backgroundMemoryLimitMB),
            mode: "sim",
            trace: outcome.events
        )
    }

    package func observations(for item: Item, sample: Sample) -> [LabelledObservations] {
        [
            // A factor of the live matrix only: in sim the durability is part of the variant
            // (and a factor differing between variants would keep them from being compared).
            item.labelled(sample.mode, factors: ["durability": item.durability?.rawValue ?? "-"], sample.observations)
        ]
    }
}
