import Measurement

/// The clock sources are a closed set, held in a `VariantRegistry` like every workload's variants,
/// so that `--variant` and the `origin` column read them the same way.
extension ClockKind: BuiltInVariants {
    public static var builtIn: [ClockKind] { allCases }

    /// Every clock source is what the platform offers (`Date()`, `CLOCK_*`); Signal's choice among
    /// them is a client's, not a source's. Harness rows get `reference` (`VariantOrigin.of`).
    public var info: VariantInfo { VariantInfo(name: name, origin: .platform, summary: summary) }
}
