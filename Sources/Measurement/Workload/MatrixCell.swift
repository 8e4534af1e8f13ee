/// A scenario that names itself: the `scenario` column of a `MatrixCell`.
public protocol NamedScenario: Sendable {
    /// The `scenario` column and the `--scenario` name.
    var name: String { get }
}

/// The item of a plain scenario × seed × variant matrix, for a workload whose items need nothing
/// more than those coordinates: written once here instead of in each such workload, and made by
/// `MatrixSelection.cells`. A workload whose items carry more (a live flag, a factor) declares
/// its own `MatrixItem`.
public struct MatrixCell<Scenario: NamedScenario, Variant: NamedVariant>: MatrixItem {
    /// The scenario the item runs.
    public var scenario: Scenario
    /// The variant it runs the scenario with.
    public var variant: Variant
    /// The seed of its random streams.
    public var seed: UInt64
    /// The seed's place in the run's list of seeds.
    public var repetition: Int

    /// The scenario's name.
    public var scenarioName: String { scenario.name }
    /// The variant's name.
    public var variantName: String { variant.info.name }
}

extension MatrixSelection {
    /// Every (scenario, seed, variant) cell, in the order of `items(scenarios:seeds:variants:_:)`.
    package static func cells<Scenario, Variant>(
        scenarios: [Scenario],
        seeds: [UInt64],
        variants: [Variant]
    ) -> [MatrixCell<Scenario, Variant>] {
        items(scenarios: scenarios, seeds: seeds, variants: variants, MatrixCell.init)
    }
}
