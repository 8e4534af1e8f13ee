import Records

/// Signal's `DebouncedEvent` in `lastOnly` mode (`SignalServiceKit/Util/DebouncedEvent.swift`),
/// timed on its clock: the first request enqueues a fire at `now + interval`; requests while that
/// fire is enqueued are ignored; the fire clears the flag. The deadline is never pushed back, so a
/// steady stream of requests cannot starve it: at most one interval passes between a request and
/// the fire that delivers it, whatever the stream.
///
/// Signal arms it with `DispatchTime` (a monotonic clock); here the clock is the source under test,
/// so the table shows what the same logic does on each clock. Signal's `N ≤ 1 ms` shortcut (a plain
/// `async`) is not modelled: the interval here is 0.5 s (0.1 s live).
public struct LastOnlyDebounceClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable { case request }
    public static var kind: ClientKind { .debounceSignal }

    let clock: Clock
    let interval: Int64
    /// The reading at which the enqueued fire runs; nil when nothing is enqueued.
    var deadline: Int64?
    var enqueuedTrue: Int64 = 0
    var requestsTrue: [Int64] = []
    /// (enqueued, fired) true times of every completed cycle.
    var cycles: [(enqueued: Int64, fired: Int64)] = []

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        self.interval = nanoseconds(parameters.debounceSeconds)
    }

    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        DebounceWorkload.requests(plan).map { Timed($0.time, .request) }
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        requestsTrue.append(trueTime)
        // Already enqueued: de-bounced, exactly as Signal ignores it.
        guard deadline == nil else { return }
        deadline = clock.now() &+ interval
        enqueuedTrue = trueTime
    }

    public var wakeDeadline: Int64? { deadline }

    public mutating func wake(trueTime: Int64) {
        guard let d = deadline, clock.now() >= d else { return }
        cycles.append((enqueuedTrue, trueTime))
        deadline = nil
    }

    /// The fires a perfect clock would give: the same logic on true time.
    func idealFireCount(_ context: ScoringContext) -> Int {
        var count = 0
        var fireAt: Int64?
        for r in requestsTrue {
            if let f = fireAt, r < context.resume(f) { continue }
            count += 1
            fireAt = r + interval
        }
        return count
    }

    /// Per enqueued fire, the ideal is its first request + interval in true time (a perfect
    /// monotonic clock; moved to the resume when it falls inside a suspend). Early and late count
    /// fires more than the tolerance off; never counts an enqueued fire still pending at the
    /// horizon. `max_wait_ms` is the longest any request waited for the fire that delivered it.
    public func observations(_ context: ScoringContext) -> [Observation] {
        var early = 0, late = 0, maxError = 0.0
        for cycle in cycles {
            let error = context.error(fired: cycle.fired, ideal: cycle.enqueued + interval)
            if error < -context.tolerance { early += 1 }
            if error > context.tolerance { late += 1 }
            maxError = max(maxError, Double(abs(error)))
        }
        let wait = DebounceWorkload.maxWait(requests: requestsTrue, fires: cycles.map(\.fired), horizon: context.horizon)
        return [
            Observation("fires", Double(cycles.count), "count"),
            Observation("fires_ideal", Double(idealFireCount(context)), "count"),
            Observation("timeouts_early", Double(early), "count"),
            Observation("timeouts_late", Double(late), "count"),
            Observation("timeouts_never", deadline == nil ? 0 : 1, "count"),
            Observation("timeout_error_ms", maxError / 1e6, "ms"),
            Observation("max_wait_ms", Double(wait) / 1e6, "ms"),
        ]
    }
}
