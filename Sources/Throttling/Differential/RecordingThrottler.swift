import Differential
import Measurement
import Records
import Simulation

/// A policy that behaves exactly as the one it wraps and writes down each publish that ran: the
/// throttle workload's observable log for differential runs (`ThrottleCase`).
///
/// Every call is forwarded unchanged, so the host sees the wrapped policy's decisions; the
/// publish is logged in `publishFinished`, the one callback that follows every publish that ran
/// (`updateApplied` has its rows but no time).
struct RecordingThrottler<Inner: UpdateThrottler>: UpdateThrottler {
    var inner: Inner
    var log: [ObservedEvent] = []
    private var applied: (rows: Int, reset: Bool)?

    init(_ inner: Inner) { self.inner = inner }

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision { inner.commitArrived(context) }
    mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision { inner.timerFired(context) }
    mutating func displayLinkTicked(_ context: ThrottleContext) -> ThrottleDecision { inner.displayLinkTicked(context) }
    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision {
        inner.frameCompleted(context, frameCost: frameCost)
    }
    mutating func framePresented(at time: SimInstant) { inner.framePresented(at: time) }
    mutating func updateApplied(rows: Int, reset: Bool, cost: SimDuration) {
        applied = (rows, reset)
        inner.updateApplied(rows: rows, reset: reset, cost: cost)
    }
    mutating func publishFinished(_ context: ThrottleContext) -> ThrottleDecision {
        if let applied {
            log.append(
                ObservedEvent(
                    atNs: context.now.nanoseconds,
                    kind: "publish",
                    detail: "rows=\(applied.rows)\(applied.reset ? " reset" : "")"
                )
            )
            self.applied = nil
        }
        return inner.publishFinished(context)
    }
    func observations() -> [Observation] { inner.observations() }
}
