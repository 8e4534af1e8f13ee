/// A workload's matrix once the user's selection is resolved: the scenarios, variants and seeds it
/// runs, and the items made of them.
///
/// Every matrix workload declared these four lists and filled the first three the same way
/// (`--variant` against the registry, `--scenario` against its catalogue, the seeds with its own
/// default count); it now holds one `ResolvedMatrix`, made by that shared step, and shapes its
/// scenarios and makes its items from it (`withCells()` for a plain scenario × seed × variant
/// matrix). `MatrixWorkload` reads the lists from it, so reports, parameters and tests still say
/// `scenarios`, `variants`, `seeds` and `items`.
public struct ResolvedMatrix<Scenario: Sendable, Variant: NamedVariant, Item: Sendable>: Sendable {
    /// The scenarios of the run, in the order asked for (or the catalogue's), as the workload
    /// shaped them (scaled, overridden).
    public var scenarios: [Scenario]
    /// The variants `--variant` selected, or the registry's default ones.
    public var variants: [Variant]
    /// The run's seeds (`MatrixSelection.seeds(default:)`).
    public var seeds: [UInt64]
    /// The whole matrix, in canonical order: empty until the workload makes its items.
    public var items: [Item] = []

    /// Resolves `--variant` against `environment`'s registry, `requested` (the selection's
    /// `--scenario` names unless the workload picks its own default) against `catalogue` by
    /// `name`, and the seeds, `defaultSeeds` of them unless `--seeds` or `--quick` say otherwise.
    /// An unknown name is a one-line usage error naming the known ones.
    public init(
        _ environment: WorkloadEnvironment<Variant>,
        scenarios catalogue: [Scenario],
        requested: [String]? = nil,
        name: (Scenario) -> String,
        seeds defaultSeeds: Int
    ) throws(BenchFailure) {
        let variants = try environment.selectedVariants()
        let chosen = try MatrixSelection.resolve(
            requested ?? environment.selection.scenarios,
            flag: "--scenario",
            from: catalogue,
            name: name
        )
        self.init(environment, resolvedScenarios: chosen, variants: variants, seeds: defaultSeeds)
    }

    /// The same for scenarios the workload resolved itself (a file in place of the catalogue).
    public init(
        _ environment: WorkloadEnvironment<Variant>,
        resolvedScenarios scenarios: [Scenario],
        seeds defaultSeeds: Int
    ) throws(BenchFailure) {
        self.init(environment, resolvedScenarios: scenarios, variants: try environment.selectedVariants(), seeds: defaultSeeds)
    }

    private init(
        _ environment: WorkloadEnvironment<Variant>,
        resolvedScenarios scenarios: [Scenario],
        variants: [Variant],
        seeds defaultSeeds: Int
    ) {
        self.scenarios = scenarios
        self.variants = variants
        seeds = environment.selection.seeds(default: defaultSeeds)
    }
}

extension ResolvedMatrix where Scenario: NamedScenario {
    /// `init(_:scenarios:requested:name:seeds:)` for scenarios that name themselves.
    public init(
        _ environment: WorkloadEnvironment<Variant>,
        scenarios catalogue: [Scenario],
        requested: [String]? = nil,
        seeds defaultSeeds: Int
    ) throws(BenchFailure) {
        try self.init(environment, scenarios: catalogue, requested: requested, name: \.name, seeds: defaultSeeds)
    }
}

extension ResolvedMatrix where Item == MatrixCell<Scenario, Variant>, Scenario: NamedScenario {
    /// The matrix with every (scenario, seed, variant) cell as its items (`MatrixSelection.cells`).
    public func withCells() -> Self {
        var matrix = self
        matrix.items = MatrixSelection.cells(scenarios: scenarios, seeds: seeds, variants: variants)
        return matrix
    }
}

/// A workload that holds its matrix as one `ResolvedMatrix`: its `items` are the matrix's, and
/// its `scenarios`, `variants` and `seeds` read from it (what its reports and parameters name).
public protocol MatrixWorkload: EnvironmentWorkload {
    /// What a scenario of the matrix is.
    associatedtype Scenario: Sendable
    /// The resolved matrix of this workload's scenarios, variants and items.
    typealias Matrix = ResolvedMatrix<Scenario, Variant, Item>
    /// The run's matrix, resolved from `environment` in the initializer.
    var matrix: Matrix { get }
}

extension MatrixWorkload {
    /// The whole matrix, in canonical order (the matrix's items).
    public var items: [Item] { matrix.items }
    /// The run's scenarios, as the workload shaped them.
    public var scenarios: [Scenario] { matrix.scenarios }
    /// The run's variants.
    public var variants: [Variant] { matrix.variants }
    /// The run's seeds.
    public var seeds: [UInt64] { matrix.seeds }
}
