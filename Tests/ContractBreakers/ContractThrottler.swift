import Simulation
import Throttling

/// Publishes every third commit and what has waited 100 ms when a frame completes; each fault
/// breaks one rule of `ThrottleContract`: `losesTail` stops publishing after five commits,
/// `partial` asks for `.upTo(rows:)` instead of `.all`, `timerOffset` arms a timer that far from
/// now on each commit (and publishes when it fires). With none it is the control.
public struct ContractThrottler: UpdateThrottler {
    public var losesTail = false
    public var partial: Int?
    public var timerOffset: SimDuration?
    var seen = 0

    public init(losesTail: Bool = false, partial: Int? = nil, timerOffset: SimDuration? = nil) {
        self.losesTail = losesTail
        self.partial = partial
        self.timerOffset = timerOffset
    }

    var publish: ThrottleDecision.Publish { partial.map { .upTo(rows: $0) } ?? .all }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        seen += 1
        if losesTail, seen > 5 { return .none }
        let timer = timerOffset.map { ThrottleDecision.Timer.fire(at: context.now + $0) } ?? .unchanged
        return ThrottleDecision(publish: seen % 3 == 0 ? publish : .nothing, timer: timer)
    }

    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision { ThrottleDecision(publish: publish) }

    public mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        guard !losesTail || seen <= 5, context.pendingCommits > 0, let oldest = context.oldestPending,
            context.now - oldest > .milliseconds(100)
        else { return .none }
        return ThrottleDecision(publish: publish)
    }
}
