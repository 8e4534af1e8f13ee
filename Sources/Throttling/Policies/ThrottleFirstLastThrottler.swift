import Simulation

/// Signal's `DebouncedEvent` in `firstLast` mode: fire at once, then at most once per `interval`,
/// and always fire once more after the last change (the trailing fire is guaranteed).
public struct ThrottleFirstLastThrottler: UpdateThrottler {
    public let interval: SimDuration
    var windowOpen = false
    var trailingPending = false

    public init(interval: SimDuration) {
        precondition(interval > .zero, "interval must be positive")
        self.interval = interval
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        if windowOpen {
            trailingPending = true
            return .none
        }
        windowOpen = true
        return ThrottleDecision(publish: .all, timer: .fire(at: context.now + interval))
    }

    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        guard trailingPending else {
            windowOpen = false
            return .none
        }
        trailingPending = false
        // The trailing fire opens a new window, so bursts publish at most once per interval.
        return ThrottleDecision(publish: context.pendingCommits > 0 ? .all : .nothing, timer: .fire(at: context.now + interval))
    }
}
