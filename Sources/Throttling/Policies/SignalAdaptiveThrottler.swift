import Simulation

/// Signal's `DatabaseChangeObserver` update throttle, faithful to its current logic.
///
/// Its own display link runs at 20 fps while changes are pending; each tick records a timestamp.
/// The link's measured frequency f (see `DisplayLinkRateEstimator`) is the load signal: a busy
/// main thread delays ticks and f falls. `alpha = clamp01((20 − f) / (20 − 10))` and the target
/// interval is `lerp(50 ms, 1 s, alpha)`. A publish is attempted after each commit and on each
/// tick, and happens if there was none before or `target` has passed since the last one started.
/// When nothing is pending after a publish the link pauses and its samples are cleared.
public struct SignalAdaptiveThrottler: UpdateThrottler {
    public static let linkRate = 20.0
    public static let lowRate = 10.0
    public static let fastInterval = 0.05
    public static let slowInterval = 1.0

    public var estimator = DisplayLinkRateEstimator()
    var lastPublishStart: SimInstant?
    var linkRunning = false

    public init() {}

    /// The interval Signal would wait now, in seconds.
    public var targetInterval: Double {
        Self.interval(forFrequency: estimator.frequency)
    }

    /// Signal's mapping from measured link frequency to update interval (seconds).
    public static func interval(forFrequency f: Double?) -> Double {
        guard let f else { return fastInterval }
        let alpha = min(max((linkRate - f) / (linkRate - lowRate), 0), 1)
        return fastInterval + (slowInterval - fastInterval) * alpha
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        var decision = attemptPublish(context)
        if decision.displayLink == .unchanged, !linkRunning {
            linkRunning = true
            decision.displayLink = .run
        }
        return decision
    }

    public mutating func displayLinkTicked(_ context: ThrottleContext) -> ThrottleDecision {
        estimator.record(context.now)
        return attemptPublish(context)
    }

    mutating func attemptPublish(_ context: ThrottleContext) -> ThrottleDecision {
        guard context.pendingCommits > 0 else { return .none }
        if let last = lastPublishStart, (context.now - last).seconds < targetInterval {
            return .none
        }
        lastPublishStart = context.now
        // Everything pending is published, so nothing is pending afterwards: pause and forget.
        linkRunning = false
        estimator.clear()
        return ThrottleDecision(publish: .all, displayLink: .pause)
    }
}
