import Simulation

/// Publishes on every commit: the lowest possible latency, and one update per commit.
public struct ImmediateThrottler: UpdateThrottler {
    public init() {}

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        ThrottleDecision(publish: .all)
    }
}
