import Records
import Simulation

/// Signal's `DatabaseChangeObserver` update throttle, faithful to its current logic.
///
/// Its own display link runs at 20 fps while anything committed is unpublished; each tick records
/// a timestamp. The link's measured frequency f (see `DisplayLinkRateEstimator`) is the load
/// signal: a busy main thread delays ticks and f falls. `alpha = clamp01((20 − f) / (20 − 10))`
/// and the target interval is `lerp(50 ms, 1 s, alpha)`. Each commit's main-thread block first
/// ensures the link (running if anything committed is left, else paused with its samples cleared),
/// then attempts a publish; each tick attempts one too. A publish happens if there was none before
/// or `target` has passed since the last one started; it takes everything committed so far. After
/// the publish (Signal's `defer { ensureDisplayLink() }`) the link pauses and forgets its samples
/// only if nothing committed is left — commits that landed during the publish keep it running.
///
/// It records the number of samples the estimator held at every gated decision
/// (`estimator_samples_*`): with fewer than 2 the interval is the fast one, so that count is why
/// Signal backs off or does not.
public struct SignalAdaptiveThrottler: UpdateThrottler {
    public static let linkRate = SignalPublishInterval.lightFrequency
    public static let lowRate = SignalPublishInterval.heavyFrequency
    public static let fastInterval = SignalPublishInterval.fastInterval
    public static let slowInterval = SignalPublishInterval.slowInterval

    public var estimator = DisplayLinkRateEstimator()
    var lastPublishStart: SimInstant?
    var linkRunning = false
    /// Samples held at each gated publish decision (something committed, an earlier publish).
    public private(set) var samplesAtDecision = SampleCountHistogram()
    /// Gated decisions whose interval was above the fast one (Signal backing off).
    public private(set) var backoffDecisions = 0
    var longestInterval = 0.0

    public init() {}

    /// The interval Signal would wait at `now`, in seconds (without changing any state).
    public func targetInterval(at now: SimInstant) -> Double {
        var e = estimator
        return Self.interval(forFrequency: e.frequency(at: now))
    }

    /// Signal's mapping from measured link frequency to update interval (seconds): its own inverse
    /// lerp, clamp and lerp (`SignalPublishInterval`, shared with bench-clock's gate).
    public static func interval(forFrequency f: Double?) -> Double {
        SignalPublishInterval.interval(forFrequency: f)
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        var decision = ensureDisplayLink(context)
        decision.publish = publishIfNecessary(context)
        return decision
    }

    public mutating func displayLinkTicked(_ context: ThrottleContext) -> ThrottleDecision {
        estimator.record(context.now)
        return ThrottleDecision(publish: publishIfNecessary(context))
    }

    public mutating func publishFinished(_ context: ThrottleContext) -> ThrottleDecision {
        ensureDisplayLink(context)
    }

    /// Signal's `ensureDisplayLink()`: run while anything committed is unpublished; otherwise pause
    /// and clear the samples (every time, whether or not it was running). Resuming keeps them.
    mutating func ensureDisplayLink(_ context: ThrottleContext) -> ThrottleDecision {
        if context.pendingCommits > 0 {
            guard !linkRunning else { return .none }
            linkRunning = true
            return ThrottleDecision(displayLink: .run)
        }
        linkRunning = false
        estimator.clear()
        return ThrottleDecision(displayLink: .pause)
    }

    /// Signal's `publishUpdatesIfNecessary()` and `publishUpdates()`.
    mutating func publishIfNecessary(_ context: ThrottleContext) -> ThrottleDecision.Publish {
        if let last = lastPublishStart {
            let frequency = estimator.frequency(at: context.now)
            let interval = Self.interval(forFrequency: frequency)
            if context.pendingCommits > 0 {
                samplesAtDecision.record(estimator.count)
                if interval > Self.fastInterval { backoffDecisions += 1 }
                longestInterval = max(longestInterval, interval)
            }
            // Monotonic integer nanoseconds, converted once: a whole-nanosecond tie passes, where
            // Signal's `Date` seconds pass about half of them (docs/signal-fidelity.md).
            guard SignalPublishInterval.isDue(elapsedSeconds: (context.now - last).seconds, interval: interval) else { return .nothing }
        }
        // An empty change set returns before the publish time is taken.
        guard context.pendingCommits > 0 else { return .nothing }
        lastPublishStart = context.now
        return .all
    }

    public func observations() -> [Observation] {
        let h = samplesAtDecision
        guard h.total > 0 else { return [Observation("estimator_decisions", 0, "decisions")] }
        return [
            Observation("estimator_decisions", Double(h.total), "decisions"),
            Observation("estimator_samples_p50", Double(h.percentile(50)!), "samples"),
            Observation("estimator_samples_p90", Double(h.percentile(90)!), "samples"),
            Observation("estimator_samples_max", Double(h.largest!), "samples"),
            Observation("estimator_under_2_share", Double(h.count(below: 2)) / Double(h.total), "ratio"),
            Observation("estimator_backoff_share", Double(backoffDecisions) / Double(h.total), "ratio"),
            Observation("estimator_interval_max_ms", longestInterval * 1000, "ms"),
        ]
    }
}
