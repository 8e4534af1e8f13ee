import Simulation

/// Signal's `DebouncedEvent` in `firstLast` mode as an update throttle: a commit enqueues a publish
/// at once — through the main queue (`queue.async`), so it runs after work already queued there —
/// if `interval` has passed since the last publish ran, else at `lastPublish + interval`. Commits
/// while a publish is enqueued ride along. The last publish time is taken when the publish runs.
public struct ThrottleFirstLastThrottler: UpdateThrottler {
    public private(set) var debouncer: FirstLastDebouncer

    public init(interval: SimDuration) {
        precondition(interval > .zero, "interval must be positive")
        debouncer = FirstLastDebouncer(interval: interval)
    }

    public var interval: SimDuration { debouncer.interval }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        debouncer.request(at: context.now).decision(now: context.now)
    }

    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        debouncer.fire(at: context.now)
        return ThrottleDecision(publish: context.pendingCommits > 0 ? .all : .nothing)
    }
}
