import Records

/// A deadline: armed as `now + timeout` on its clock, fires once the clock reaches it, like
/// `let deadline = Date() + 30; … if Date() >= deadline { giveUp() }`.
public struct TimeoutClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable { case arm(Int) }
    public static var kind: ClientKind { .timeout }

    let clock: Clock
    let timeout: Int64
    /// Pending deadlines (reading on the client's clock) by timeout index.
    var pending: [Int: Int64] = [:]
    var armedTrue: [Int: Int64] = [:]
    var firedTrue: [Int: Int64] = [:]

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        self.timeout = nanoseconds(parameters.timeoutSeconds)
    }

    /// One timeout armed every `timeoutEverySeconds`, the first half a period into each window (so
    /// that deadlines do not coincide with the whole-minute instants where scenarios put steps).
    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        let every = nanoseconds(plan.parameters.timeoutEverySeconds)
        return plan.periodic(every: every, offset: every / 2).enumerated().map { Timed($1, .arm($0)) }
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        guard case .arm(let i) = event else { return }
        pending[i] = clock.now() &+ timeout
        armedTrue[i] = trueTime
    }

    public var wakeDeadline: Int64? { pending.values.min() }

    public mutating func wake(trueTime: Int64) {
        let now = clock.now()
        for (i, deadline) in pending where now >= deadline {
            pending[i] = nil
            firedTrue[i] = trueTime
        }
    }

    public func observations(_ context: ScoringContext) -> [Observation] {
        var early = 0, late = 0, never = 0, maxError = 0.0
        for (i, armed) in armedTrue {
            guard let fired = firedTrue[i] else {
                never += 1
                continue
            }
            let error = context.error(fired: fired, ideal: armed + timeout)
            if error < -context.tolerance { early += 1 }
            if error > context.tolerance { late += 1 }
            maxError = max(maxError, Double(abs(error)))
        }
        return [
            Observation("timeouts", Double(armedTrue.count), "count"),
            Observation("timeouts_early", Double(early), "count"),
            Observation("timeouts_late", Double(late), "count"),
            Observation("timeouts_never", Double(never), "count"),
            Observation("timeout_error_ms", maxError / 1e6, "ms"),
        ]
    }
}
