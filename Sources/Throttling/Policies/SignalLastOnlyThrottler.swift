import Simulation

/// Signal's `DebouncedEvent` in `lastOnly` mode as an update throttle: the first commit enqueues a
/// publish `interval` later; commits while it is enqueued ride along; the timer is never pushed
/// back, so a steady stream publishes every `interval` and never starves.
///
/// Contrast `DebounceLastThrottler`, the article's reading of lastOnly (a re-arming trailing
/// debounce). An interval of at most 1 ms fires with a plain `async` (behind queued work).
public struct SignalLastOnlyThrottler: UpdateThrottler {
    public private(set) var debouncer: LastOnlyDebouncer

    public init(interval: SimDuration) {
        precondition(interval > .zero, "interval must be positive")
        debouncer = LastOnlyDebouncer(interval: interval)
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        debouncer.request(at: context.now).decision(now: context.now)
    }

    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        debouncer.fire()
        return ThrottleDecision(publish: context.pendingCommits > 0 ? .all : .nothing)
    }
}
