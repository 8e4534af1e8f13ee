import Simulation

/// A repeating timer that publishes whatever is pending every `interval`.
///
/// Like `Timer.scheduledTimer(repeats: true)`: firings are on a fixed grid from the start, and a
/// firing delayed past the next grid point does not fire twice — it skips to the next point ahead.
public struct FixedRateThrottler: UpdateThrottler {
    public let interval: SimDuration
    var nextFire: SimInstant?

    public init(interval: SimDuration) {
        precondition(interval > .zero, "interval must be positive")
        self.interval = interval
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        guard nextFire == nil else { return .none }
        // The timer is created with the first change and then repeats for the rest of the run.
        let first = context.now + interval
        nextFire = first
        return ThrottleDecision(timer: .fire(at: first))
    }

    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        var next = (nextFire ?? context.now) + interval
        if next <= context.now {
            let behind = (context.now - next).nanoseconds / interval.nanoseconds + 1
            next = next + interval * behind
        }
        nextFire = next
        return ThrottleDecision(publish: context.pendingCommits > 0 ? .all : .nothing, timer: .fire(at: next))
    }
}
