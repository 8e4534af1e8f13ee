import Measurement
import Records
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
///
/// A `FoldingWorkload`: the driver folds each finished item into `Kept` as it streams past, and the
/// report reads the rest from the run's summaries, so memory does not grow with `--seeds`.
public struct SkeletonWorkload: FoldingWorkload, MatrixWorkload {
    /// The variants `--variant` chooses from (`environment.registry`).
    public typealias Variant = SkeletonVariant
    /// The scenarios `--scenario` chooses from (`matrix.scenarios`).
    public typealias Scenario = SkeletonScenario

    /// One cell of the matrix: a `MatrixItem`, which labels its records (and comparisons, traces)
    /// from the scenario's and the variant's names. An item that needs more (a live flag, a
    /// factor) becomes a struct of its own conforming to `MatrixItem`.
    public typealias Item = MatrixCell<SkeletonScenario, SkeletonVariant>

    /// The workload's name: the `workload` column and the file stem (skeleton.csv, skeleton.json).
    public static let name = "skeleton"
    /// The run's settings.
    public let configuration: SkeletonConfiguration
    /// What the run was built with: the user's selection, the variants' registry, whether to
    /// record timelines (`selection`, `recordTimeline` and `variantOrigins` read it).
    public let environment: Environment
    /// The scenarios, variants and seeds of the run, resolved, and the items made of them
    /// (`scenarios`, `variants`, `seeds` and `items` read it).
    public let matrix: Matrix
    public var factorNames: [String] { [] }

    /// Builds the matrix; an unknown name fails with one line before anything runs.
    public init(configuration: SkeletonConfiguration, environment: Environment = Environment()) throws {
        self.configuration = configuration
        self.environment = environment
        matrix = try Matrix(environment, scenarios: SkeletonScenario.catalogue, seeds: 3).withCells()
    }

    public func label(_ item: Item) -> String { "\(item.scenarioName) \(item.variantName) seed \(item.seed)" }

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
        [item.labelled("sim", sample.observations)]
    }

    /// What the report needs of each item beyond the run's summaries (totals, notes, live-versus-sim
    /// comparisons: `item.comparisons(sim:live:)`): nothing yet. A report that keeps only notes,
    /// comparisons and a few items' whole records makes this `typealias Kept = KeptForReport`.
    public struct Kept: Sendable {}

    public var emptyAggregate: Kept { Kept() }

    public func aggregate(_ kept: inout Kept, _ finished: FinishedItem<Item, SkeletonTally>) {}

    public func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        WorkloadReport(table: Ranking.render(summaries: summaries, scenarios: scenarios.map(\.name)))
    }

    /// The table printed at the end: per scenario, the variants ranked by median handler runs, then
    /// median mean latency (the placeholder's trade-off: rank by what matters for your pattern).
    public enum Ranking: ScenarioRanking {
        public static let columns: [SummaryTable.Column] = [
            ("handler_runs", "runs"), ("latency_mean_ms", "mean ms"), ("latency_max_ms", "max ms"),
        ]

        public static func section(_ scenario: String, table: SummaryTable) -> String {
            let keys = ["handler_runs", "latency_mean_ms"]
            let ranked = table.variants.sorted { a, b in
                keys.map { table.median(a, $0) }.lexicographicallyPrecedes(keys.map { table.median(b, $0) })
            }
            return "\n\(scenario)  (\(TextTable.spreadNote); ranked by median handler runs, then mean latency)\n"
                + table.render(ranked) { i, _ in "\(i + 1)" }
        }
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
}
