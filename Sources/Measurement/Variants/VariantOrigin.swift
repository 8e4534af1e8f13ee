/// Where a variant comes from: the `origin` column of every result row.
///
/// PatternBench measures Signal's patterns beside the articles' descriptions of them, its own
/// designs, what the platform offers, yardsticks — and the user's own code, registered from the
/// user's package through the same registry as the suite's variants.
public enum VariantOrigin: String, Sendable, Hashable, CaseIterable, Codable {
    /// A model of what Signal's code does (cited in docs/signal-fidelity.md).
    case signal
    /// The pattern as one of the articles describes it.
    case article
    /// PatternBench's own design.
    case ours
    /// What the OS or a library offers as it is (pthread_mutex, NSLock, an LRU, NSCache).
    case platform
    /// A yardstick or a control: the lock-free floor, the C references, the unsynchronized control.
    case reference
    /// Registered by a user's own package.
    case user
}

extension VariantOrigin {
    /// The `origin` of a row of `variant`, given the run's registered variants: theirs, or
    /// `reference` for a row no registry names — the harness's own measurements (variant `harness`,
    /// the `-` of a live demonstration, a fan-out primitive's child overhead) are yardsticks, and
    /// results/README.md allows no empty origin.
    public static func of(_ variant: String, in origins: [String: VariantOrigin]) -> VariantOrigin {
        origins[variant] ?? .reference
    }
}
