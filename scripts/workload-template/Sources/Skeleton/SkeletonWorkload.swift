import Measurement
import Simulation

/// bench-skeleton's own settings, as plain values, before the matrix is built.
public struct SkeletonConfiguration: Sendable {
    /// How long `coalesce` waits after the first waiting request, in milliseconds.
    public var intervalMs = 50
    /// How long one handler run takes, in milliseconds.
    public var handlerCostMs = 5

    /// The defaults.
    public init() {}
}

/// bench-skeleton as a `Workload`: every (scenario, seed, variant) is one item, run in virtual time.
public struct SkeletonWorkload: Workload {
    /// One cell of the matrix.
    public struct Item: Sendable {
        public var scenario: SkeletonScenario
        public var variant: SkeletonVariant
        public var seed: UInt64
        public var repetition: Int
    }

    /// The workload's name: the `workload` column and the file stem (skeleton.csv, skeleton.json).
    public static let name = "skeleton"
    /// The run's settings.
    public let configuration: SkeletonConfiguration
    /// What the user asked for.
    public let selection: MatrixSelection
    /// The scenarios, variants and seeds of the run, resolved.
    public let scenarios: [SkeletonScenario]
    public let variants: [SkeletonVariant]
    public let seeds: [UInt64]
    public let items: [Item]
    public var factorNames: [String] { [] }

    /// Builds the matrix; an unknown name fails with one line before anything runs.
    public init(configuration: SkeletonConfiguration, selection: MatrixSelection) throws {
        self.configuration = configuration
        self.selection = selection
        variants = try MatrixSelection.resolve(selection.variants, flag: "--variant", from: SkeletonVariant.allCases, name: \.rawValue)
        scenarios = try MatrixSelection.resolve(selection.scenarios, flag: "--scenario", from: SkeletonScenario.catalogue, name: \.name)
        seeds = selection.seeds(default: 3)
        items = MatrixSelection.items(scenarios: scenarios, seeds: seeds, variants: variants) {
            Item(scenario: $0, variant: $1, seed: $2, repetition: $3)
        }
    }

    public func label(_ item: Item) -> String { "\(item.scenario.name) \(item.variant.rawValue) seed \(item.seed)" }

    public func timing(_ item: Item) -> ItemTiming { .virtual }

    public func run(_ item: Item) throws -> SkeletonTally {
        SkeletonSimulation.run(
            variant: item.variant,
            scenario: item.scenario,
            seed: item.seed,
            interval: .milliseconds(configuration.intervalMs),
            handlerCost: .milliseconds(configuration.handlerCostMs)
        )
    }

    public func observations(for item: Item, sample: SkeletonTally) -> [LabelledObservations] {
        [
            LabelledObservations(
                scenario: item.scenario.name,
                variant: item.variant.rawValue,
                mode: "sim",
                seed: item.seed,
                repetition: item.repetition,
                observations: sample.observations
            )
        ]
    }

    /// Per scenario, every variant's median (and spread over seeds) of each metric.
    public func report(_ results: [FinishedItem<Item, SkeletonTally>], complete: Bool) throws -> WorkloadReport {
        let summaries = Statistics.summarize(records(of: results))
        let metrics = ["handler_runs", "latency_mean_ms", "latency_max_ms"]
        var out = ""
        for scenario in scenarios {
            var table = TextTable(columns: ["variant"] + metrics, rightAligned: Set(1...metrics.count))
            for variant in variants {
                let cells = metrics.map { m in
                    summaries.first { $0.scenario == scenario.name && $0.variant == variant.rawValue && $0.metric == m }?.cell ?? "-"
                }
                table.add([variant.rawValue] + cells)
            }
            out += "\n\(scenario.name)  (\(TextTable.spreadNote))\n" + table.render()
        }
        return WorkloadReport(table: out)
    }

    /// What `--list` prints.
    public static var catalogue: WorkloadCatalogue {
        WorkloadCatalogue(sections: [
            .init("scenarios (--scenario)", SkeletonScenario.catalogue.map { .init($0.name, $0.summary, isDefault: true) }),
            .init("variants (--variant)", SkeletonVariant.allCases.map { .init($0.rawValue, $0.summary, isDefault: true) }),
        ])
    }

    /// Every parameter of the run, so that the JSON alone reproduces it.
    public var parameters: [String: JSONValue] {
        [
            "seeds": .array(seeds.map { .number(Double($0)) }),
            "scenarios": .array(scenarios.map { .string($0.name) }),
            "variants": .array(variants.map { .string($0.rawValue) }),
            "interval_ms": .number(Double(configuration.intervalMs)),
            "handler_cost_ms": .number(Double(configuration.handlerCostMs)),
        ]
    }

    /// Both variants are the scaffold's own: replace with `.signal` for a model of Signal's code.
    public var variantOrigins: [String: VariantOrigin] {
        Dictionary(uniqueKeysWithValues: SkeletonVariant.allCases.map { ($0.rawValue, .ours) })
    }
}
