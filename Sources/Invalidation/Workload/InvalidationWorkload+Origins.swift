import Measurement

extension InvalidationWorkload {
    /// `signal` and `signal-legacy` model Signal's code (today's and the older design), the control
    /// is a reference, `change-log` is ours.
    public var variantOrigins: [String: VariantOrigin] {
        Dictionary(
            uniqueKeysWithValues: InvalidationVariant.allCases.map { v in
                let origin: VariantOrigin =
                    switch v {
                    case .signal, .signalLegacy: .signal
                    case .noInvalidation: .reference
                    case .changeLog: .ours
                    }
                return (v.rawValue, origin)
            }
        )
    }
}
