import Simulation

/// The policies under test, by name, with their tunable parameters.
public enum ThrottlePolicy: String, CaseIterable, Hashable, Sendable {
    case immediate
    case fixedRate = "fixed-rate"
    case signalAdaptive = "signal-adaptive"
    case signalBrief = "signal-brief"
    case debounceLast = "debounce-last"
    case throttleFirstLast = "throttle-first-last"
    case frameBudget = "frame-budget"

    public var summary: String {
        switch self {
        case .immediate: "publish on every commit"
        case .fixedRate: "repeating timer publishes what is pending (--fixed-interval-ms)"
        case .signalAdaptive: "Signal's DatabaseChangeObserver: 20 fps display-link estimate -> 50 ms..1 s"
        case .signalBrief: "the quoted simplification: 60..20 fps -> 50..500 ms"
        case .debounceLast: "DebouncedEvent lastOnly: publish after a quiet period (--debounce-ms)"
        case .throttleFirstLast: "DebouncedEvent firstLast: at once, then at most once per interval (--debounce-ms)"
        case .frameBudget: "ours: fit updates into idle time before the next frame, bounded age (--max-age-ms)"
        }
    }

    /// Parameters shared by the policies that take one.
    public struct Parameters: Hashable, Sendable {
        public var fixedInterval: SimDuration = .milliseconds(100)
        public var debounceInterval: SimDuration = .milliseconds(100)
        public var maxAge: SimDuration = .milliseconds(30)
        public init() {}
    }

    public func make(_ parameters: Parameters) -> any UpdateThrottler {
        switch self {
        case .immediate: ImmediateThrottler()
        case .fixedRate: FixedRateThrottler(interval: parameters.fixedInterval)
        case .signalAdaptive: SignalAdaptiveThrottler()
        case .signalBrief: SignalBriefThrottler()
        case .debounceLast: DebounceLastThrottler(quietPeriod: parameters.debounceInterval)
        case .throttleFirstLast: ThrottleFirstLastThrottler(interval: parameters.debounceInterval)
        case .frameBudget: FrameBudgetThrottler(maxAge: parameters.maxAge)
        }
    }
}
