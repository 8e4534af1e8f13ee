/// The process a cache lives in, which decides its size and which lifecycle events reach it.
///
/// Signal's rule (2021 on): `isNSE ? nseMaxSize : maxSize`; the share extension gets the main-app
/// size; `nseMaxSize` defaults to 0, a disabled cache.
public enum ProcessContext: String, CaseIterable, Sendable {
    case mainApp = "main-app"
    case nse
    case shareExtension = "share-extension"

    var summary: String {
        switch self {
        case .mainApp: "the main app: the configured maxSize"
        case .nse: "the notification service extension: nseMaxSize (0 = disabled, every read misses)"
        case .shareExtension: "the share extension: the main-app maxSize"
        }
    }
}
