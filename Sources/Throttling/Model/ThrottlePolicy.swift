import Simulation

/// The policies under test, by name, with their tunable parameters.
public enum ThrottlePolicy: String, CaseIterable, Hashable, Sendable {
    case immediate
    case fixedRate = "fixed-rate"
    case signalAdaptive = "signal-adaptive"
    case signalBrief = "signal-brief"
    case signalLastOnly = "signal-last-only"
    case debounceLast = "debounce-last"
    case throttleFirstLast = "throttle-first-last"
    case frameBudget = "frame-budget"

    public var summary: String {
        switch self {
        case .immediate: "publish on every commit"
        case .fixedRate: "repeating timer publishes what is pending (--fixed-interval-ms)"
        case .signalAdaptive: "signal: DatabaseChangeObserver, 20 fps display-link estimate -> 50 ms..1 s"
        case .signalBrief: "article: the quoted simplification, 60..20 fps -> 50..500 ms"
        case .signalLastOnly: "signal: DebouncedEvent lastOnly, fires N after the first request, never starves (--debounce-ms)"
        case .debounceLast: "article: lastOnly as a re-arming trailing debounce, starves under a stream (--debounce-ms)"
        case .throttleFirstLast: "signal: DebouncedEvent firstLast, async fire, then at most once per N (--debounce-ms)"
        case .frameBudget: "ours: fit updates into idle time before the next frame, bounded age (--max-age-ms)"
        }
    }

    /// Parameters shared by the policies that take one, and the app's second stage.
    public struct Parameters: Hashable, Sendable {
        public var fixedInterval: SimDuration = .milliseconds(100)
        public var debounceInterval: SimDuration = .milliseconds(100)
        public var maxAge: SimDuration = .milliseconds(30)
        /// What the app does with a publish (`--pipeline`); the same for every policy in a run.
        public var pipeline: ThrottlePipeline = .conversation
        public init() {}
    }

    /// Builds this policy with `parameters` and hands it, with its concrete type, to `visitor`:
    /// the one place a policy name becomes a type. Each call site is specialized per policy (an
    /// opened existential ran the simulator unspecialized, a third slower).
    public func visit<V: ThrottlerVisitor>(_ visitor: V, parameters p: Parameters) -> V.Result {
        switch self {
        case .immediate: visitor.visit(ImmediateThrottler())
        case .fixedRate: visitor.visit(FixedRateThrottler(interval: p.fixedInterval))
        case .signalAdaptive: visitor.visit(SignalAdaptiveThrottler())
        case .signalBrief: visitor.visit(SignalBriefThrottler())
        case .signalLastOnly: visitor.visit(SignalLastOnlyThrottler(interval: p.debounceInterval))
        case .debounceLast: visitor.visit(DebounceLastThrottler(quietPeriod: p.debounceInterval))
        case .throttleFirstLast: visitor.visit(ThrottleFirstLastThrottler(interval: p.debounceInterval))
        case .frameBudget: visitor.visit(FrameBudgetThrottler(maxAge: p.maxAge))
        }
    }
}

/// Something done with a policy of any concrete type (see `ThrottlePolicy.visit`).
public protocol ThrottlerVisitor {
    associatedtype Result
    func visit<P: UpdateThrottler>(_ throttler: P) -> Result
}
