import Caching
import FanOut
import Lifecycle
import Locking
import Measurement
import Readiness
import Simulation
import Throttling

/// Every variant the opened workloads can run: the suite's own, plus whatever a user's package
/// registers.
///
/// A user's executable starts from `Suite()` (the suite's own variants, the same registration the
/// `bench-*` tools use), registers its own types on the role's registry — one line each — and
/// hands the suite to `SuiteMain.run`. Registration refuses a duplicate or reserved name with a
/// one-line error before anything runs.
///
/// ```swift
/// var suite = Suite()
/// try suite.throttlers.register(ThrottlerVariant(name: "every-3", origin: .user, summary: "…") { _ in EveryThird() })
/// SuiteMain.run(suite)
/// ```
public struct Suite: Sendable {
    /// bench-throttle's policies (`UpdateThrottler`), run in virtual time and live.
    public var throttlers: VariantRegistry<ThrottlerVariant> = .throttlers
    /// bench-cache's count-bounded caches (`CacheVariant`, the `CountBoundedCache` role).
    public var caches = VariantRegistry<CacheVariant>(builtIn: CacheVariant.builtIn)
    /// bench-readiness's launch coordinators (`ReadinessVariant`: a `ReadinessPolicy`, a `ReadinessAPI` or both).
    public var coordinators = VariantRegistry<ReadinessVariant>(builtIn: ReadinessVariant.builtIn)
    /// bench-group's fan-out strategies (`FanOutVariant`: a `FanOutShape`, run in virtual time and on real primitives).
    public var fanOuts = VariantRegistry<FanOutVariant>(builtIn: FanOutVariant.builtIn)
    /// bench-lifecycle's lifecycle strategies (`LifecycleVariant`: a `LifecyclePolicy`).
    public var lifecycleStrategies = VariantRegistry<LifecycleVariant>(builtIn: LifecycleVariant.builtIn)
    /// bench-atomics' locks and whole atomic wrappers (`LockVariant`: a `LockStrategy` or an `AtomicWrapper`).
    public var locks = VariantRegistry<LockVariant>(builtIn: LockVariant.builtIn)

    /// A suite with the suite's own variants of every role.
    public init() {}
}

extension Suite {
    private static let installed = LockedState(Suite())

    /// The suite the running command reads its variants from: the default one in the `bench-*`
    /// tools, the user's in an executable started by `SuiteMain.run`.
    package static var current: Suite {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }
}
