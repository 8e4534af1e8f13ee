/// What a workload is built with besides its own configuration: the user's matrix selection, the
/// registry its variants come from (a suite's, a user's executable's) and whether its items record
/// their timelines (`--events`, `--perfetto`).
///
/// The driver fills it in from the command line; a test builds a workload of the suite's own
/// variants with `WorkloadEnvironment()` or `WorkloadEnvironment(selection: …)`.
public struct WorkloadEnvironment<Variant: NamedVariant>: Sendable {
    /// What `--scenario`, `--variant`, `--seed`, `--seeds` and `--quick` asked for.
    public var selection: MatrixSelection
    /// The variants `--variant` chooses from.
    public var registry: VariantRegistry<Variant>
    /// Items keep their timelines (`--events`, `--perfetto`); a default run records none.
    public var recordTimeline: Bool

    /// An environment of `registry`'s variants.
    public init(selection: MatrixSelection = MatrixSelection(), registry: VariantRegistry<Variant>, recordTimeline: Bool = false) {
        self.selection = selection
        self.registry = registry
        self.recordTimeline = recordTimeline
    }

    /// The variants `--variant` selects, or the registry's default ones when it names none; an
    /// unknown name is a one-line usage error naming the known ones.
    public func selectedVariants() throws(BenchFailure) -> [Variant] {
        try registry.resolve(selection.variants)
    }
}

extension WorkloadEnvironment where Variant: BuiltInVariants {
    /// An environment of the suite's own variants.
    public init(selection: MatrixSelection = MatrixSelection(), recordTimeline: Bool = false) {
        self.init(selection: selection, registry: VariantRegistry(builtIn: Variant.builtIn), recordTimeline: recordTimeline)
    }
}

/// A workload built from a `WorkloadEnvironment`: what it reads of the environment — the selection,
/// the timeline switch, every registered variant's origin for the `origin` column — is read here
/// once, not in each workload.
public protocol EnvironmentWorkload: Workload {
    /// The variants `--variant` chooses from, named once by each workload.
    associatedtype Variant: NamedVariant
    /// The environment of this workload's variants: what its initializer takes, with
    /// `Environment()` (the suite's own variants) as the default.
    typealias Environment = WorkloadEnvironment<Variant>
    /// What the workload was built with.
    var environment: Environment { get }
}

extension EnvironmentWorkload {
    /// What the user asked the matrix to contain.
    public var selection: MatrixSelection { environment.selection }
    /// Whether items record their timelines (`--perfetto`, `--events`); a default run records none.
    public var recordTimeline: Bool { environment.recordTimeline }
    /// Every registered variant's origin, by name.
    public var variantOrigins: [String: VariantOrigin] { environment.registry.origins }
}
