import Simulation

/// Signal's `DebouncedEvent` in `lastOnly` mode: publish once changes have been quiet for
/// `quietPeriod`.
///
/// Every commit pushes the deadline back, so a stream with gaps shorter than the quiet period
/// never publishes until it stops: under an initial-sync storm the screen freezes for the whole
/// storm. The benchmark shows exactly how long.
public struct DebounceLastThrottler: UpdateThrottler {
    public let quietPeriod: SimDuration

    public init(quietPeriod: SimDuration) {
        precondition(quietPeriod > .zero, "quiet period must be positive")
        self.quietPeriod = quietPeriod
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        ThrottleDecision(timer: .fire(at: context.now + quietPeriod))
    }

    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        ThrottleDecision(publish: context.pendingCommits > 0 ? .all : .nothing)
    }
}
