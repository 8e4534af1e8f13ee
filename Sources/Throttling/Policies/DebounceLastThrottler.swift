import Simulation

/// The article's description of `DebouncedEvent.lastOnly` — *not* Signal's code: a classic
/// trailing debounce that publishes once changes have been quiet for `quietPeriod`.
///
/// Every commit cancels the timer and restarts the countdown, so a stream with gaps shorter than
/// the quiet period never publishes until it stops: under an initial-sync storm the screen shows
/// nothing new for the whole storm. Signal's lastOnly (`SignalLastOnlyThrottler`) fires N after
/// the first request instead and cannot starve; the benchmark measures what the difference costs.
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
