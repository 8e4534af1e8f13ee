import Records

/// An in-call timer: every tick shows `now − call start`, as whole seconds on screen.
public struct CallDurationClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable { case start, tick }
    public static var kind: ClientKind { .callDuration }

    let clock: Clock
    let tickLength: Int64
    var startReading: Int64?
    var startTrue: Int64 = 0
    var ticks = 0, negative = 0, wrongDisplay = 0
    var maxAbs = 0.0, sumAbs = 0.0
    /// Call starts and wrong displays (true time, shown − true), when recording a trace.
    var recorded: (starts: [Int64], wrong: [(time: Int64, error: Int64)])?

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        self.tickLength = nanoseconds(parameters.callTickSeconds)
    }

    /// One call per window, from its start to its end, refreshed every tick; ticks sit half a tick
    /// off the call's whole seconds so that sub-millisecond noise never flips the shown second.
    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        let tick = nanoseconds(plan.parameters.callTickSeconds)
        var events: [Timed<Event>] = []
        for w in plan.windows where w.upperBound - w.lowerBound > tick {
            events.append(Timed(w.lowerBound, .start))
            events += WorkloadPlan.periodic(in: w, every: tick, offset: tick / 2).map { Timed($0, .tick) }
        }
        return events
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        switch event {
        case .start:
            startReading = clock.now()
            startTrue = trueTime
            recorded?.starts.append(trueTime)
        case .tick:
            guard let s = startReading else { return }
            let shown = clock.elapsed(from: s, to: clock.now())
            let truth = trueTime - startTrue
            ticks += 1
            if shown < 0 { negative += 1 }
            let err = abs(Double(shown) - Double(truth))
            maxAbs = max(maxAbs, err)
            sumAbs += err
            if Self.floorDiv(shown, tickLength) != Self.floorDiv(truth, tickLength) {
                wrongDisplay += 1
                recorded?.wrong.append((trueTime, shown - truth))
            }
        }
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    public var wakeDeadline: Int64? { nil }
    public mutating func wake(trueTime: Int64) {}

    public func observations(_ context: ScoringContext) -> [Observation] {
        [
            Observation("display_ticks", Double(ticks), "count"),
            Observation("negative_durations", Double(negative), "count"),
            Observation("display_wrong_ticks", Double(wrongDisplay), "count"),
            Observation("max_abs_error_us", maxAbs / 1e3, "us"),
            Observation("mean_abs_error_us", ticks == 0 ? 0 : sumAbs / Double(ticks) / 1e3, "us"),
        ]
    }
}
