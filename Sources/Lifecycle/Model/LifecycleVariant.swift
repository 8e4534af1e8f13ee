import Measurement

/// One lifecycle strategy bench-lifecycle can run, registered by name in
/// `Suite.lifecycleStrategies`: the suite's own and a user's go through the same
/// `VariantRegistry.register`.
///
/// ```swift
/// try suite.lifecycleStrategies.register(
///     LifecycleVariant(name: "wal-purge", origin: .user, summary: "…", policy: LifecyclePolicy(…)))
/// ```
public struct LifecycleVariant: BuiltInVariants {
    /// Its name, origin, `--list` line and whether it runs by default.
    public let info: VariantInfo
    /// The declaration bench-lifecycle executes.
    public let policy: LifecyclePolicy

    /// A strategy from its declaration.
    public init(name: String, origin: VariantOrigin, summary: String, isDefault: Bool = true, policy: LifecyclePolicy) {
        info = VariantInfo(name: name, origin: origin, summary: summary, isDefault: isDefault)
        self.policy = policy
    }

    /// The variant's name (`info.name`).
    public var name: String { info.name }

    /// Every field of the declaration: two variants with the same parameters are the same strategy.
    public var parameters: [VariantParameter] { Array(VariantParameter.describing(policy).dropFirst()) }
}
