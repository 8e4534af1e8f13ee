/// A variant type with the suite's own variants: the list a registry starts from.
public protocol BuiltInVariants: NamedVariant {
    /// The suite's own variants, in `--list` order.
    static var builtIn: [Self] { get }
}

/// A workload whose variants come from a `VariantRegistry` (a suite's, a user's executable's):
/// `--list` prints `catalogue(variants:)` of that registry, and the workload's own catalogue is
/// the same for its built-in variants, derived here once instead of in each workload.
public protocol RegistryWorkload: Workload {
    associatedtype Variant: BuiltInVariants
    /// What `--list` prints with `variants` registered, each labelled with its origin.
    static func catalogue(variants: VariantRegistry<Variant>) -> WorkloadCatalogue
}

extension RegistryWorkload {
    /// The catalogue of the suite's own variants (a command with a user's registry lists
    /// `catalogue(variants:)`).
    public static var catalogue: WorkloadCatalogue { catalogue(variants: VariantRegistry(builtIn: Variant.builtIn)) }
}
