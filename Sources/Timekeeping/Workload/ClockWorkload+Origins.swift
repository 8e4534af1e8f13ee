import Measurement

extension ClockWorkload {
    /// Every clock source is what the platform offers (`Date()`, `CLOCK_*`); Signal's choice among
    /// them is a client's, not a source's. Harness rows get `reference`
    /// (`VariantOrigin.of`).
    package var variantOrigins: [String: VariantOrigin] {
        Dictionary(uniqueKeysWithValues: ClockKind.allCases.map { ($0.name, VariantOrigin.platform) })
    }
}
