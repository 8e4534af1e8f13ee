/// How the app's ~200 services are built (`--globals`).
package enum GlobalsStrategy: String, CaseIterable, Sendable {
    /// Signal's `AppSetup.initGlobals`: every service constructed in order on the main thread
    /// before ready.
    case eager
    /// The article's closure registry: a factory per service, resolved on first use with
    /// check-then-create outside the lock (two concurrent first uses can build two instances).
    case lazyRegistry = "lazy-registry"
    /// A registry whose first use runs the factory exactly once (a lock held across creation).
    case lazyOnce = "lazy-once"

    package var isLazy: Bool { self != .eager }

    package var summary: String {
        switch self {
        case .eager: "Signal's AppSetup: ~200 services built in order on main before ready"
        case .lazyRegistry: "the article's closure registry: built on first use, check-then-create (not atomic)"
        case .lazyOnce: "a registry with a thread-safe once per service"
        }
    }
}
