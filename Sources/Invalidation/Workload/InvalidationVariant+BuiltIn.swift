import Measurement

/// The designs are a closed set (the harness runs each by its case), held in a `VariantRegistry`
/// like every workload's variants, so that `--variant` and the `origin` column read them the same way.
extension InvalidationVariant: BuiltInVariants {
    public static var builtIn: [InvalidationVariant] { allCases }

    public var info: VariantInfo { VariantInfo(name: rawValue, origin: origin, summary: summary) }

    /// `signal` and `signal-legacy` model Signal's code (today's and the older design), the control
    /// is a reference, `change-log` is ours.
    var origin: VariantOrigin {
        switch self {
        case .signal, .signalLegacy: .signal
        case .noInvalidation: .reference
        case .changeLog: .ours
        }
    }
}

/// A scenario names its `scenario` column, as a `MatrixCell`'s scenario does.
extension InvalidationScenario: NamedScenario {}
