import Measurement

/// Signal's `DebouncedEvent` in `lastOnly` mode, timed on its clock: every signal re-arms the
/// deadline to `now + interval`; the event fires once the clock reaches it with no newer signal.
public struct DebounceClient<Clock: ClockSource>: TimingClient {
    /// A signal belonging to burst `burst`.
    public enum Event: Sendable { case signal(burst: Int) }
    public static var kind: ClientKind { .debounce }

    let clock: Clock
    let interval: Int64
    var deadline: Int64?
    var armedBy = 0
    var lastSignalTrue: [Int: Int64] = [:]
    /// Fires by the burst whose signal armed them.
    var fires: [Int: [Int64]] = [:]

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        self.interval = nanoseconds(parameters.debounceSeconds)
    }

    /// Bursts of 2…10 signals close together, separated by quiet gaps far longer than the interval.
    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        var rng = plan.generator(for: kind)
        let p = plan.parameters
        var events: [Timed<Event>] = []
        var burst = 0
        for w in plan.windows {
            var t = w.lowerBound + nanoseconds(p.burstGapMin * rng.nextUnit())
            while true {
                let count = Int(rng.nextInt(in: 2...10))
                var signals: [Int64] = []
                for _ in 0..<count {
                    signals.append(t)
                    t += nanoseconds(p.burstSpacingMin + (p.burstSpacingMax - p.burstSpacingMin) * rng.nextUnit())
                }
                guard signals.last! + nanoseconds(p.debounceSeconds) < w.upperBound else { break }
                events += signals.map { Timed($0, .signal(burst: burst)) }
                burst += 1
                t = signals.last! + nanoseconds(p.debounceSeconds + p.burstGapMin + (p.burstGapMax - p.burstGapMin) * rng.nextUnit())
            }
        }
        return events
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        guard case .signal(let burst) = event else { return }
        deadline = clock.now() &+ interval
        armedBy = burst
        lastSignalTrue[burst] = trueTime
    }

    public var wakeDeadline: Int64? { deadline }

    public mutating func wake(trueTime: Int64) {
        guard let d = deadline, clock.now() >= d else { return }
        fires[armedBy, default: []].append(trueTime)
        deadline = nil
    }

    /// Per burst, the ideal fire is its last signal + interval. Early: fires before that (a
    /// burst cut in two). Late: the burst's last fire after it. Never: the burst's update was only
    /// delivered by a later burst's fire, or not at all.
    public func observations(_ context: ScoringContext) -> [Observation] {
        var early = 0, late = 0, never = 0, maxError = 0.0, fireCount = 0
        for (burst, last) in lastSignalTrue {
            let list = fires[burst] ?? []
            fireCount += list.count
            guard !list.isEmpty else { never += 1; continue }
            let errors = list.map { context.error(fired: $0, ideal: last + interval) }
            early += errors.filter { $0 < -context.tolerance }.count
            if errors.last! > context.tolerance { late += 1 }
            maxError = max(maxError, Double(errors.map { abs($0) }.max()!))
        }
        return [
            Observation("fires", Double(fireCount), "count"),
            Observation("fires_ideal", Double(lastSignalTrue.count), "count"),
            Observation("timeouts_early", Double(early), "count"),
            Observation("timeouts_late", Double(late), "count"),
            Observation("timeouts_never", Double(never), "count"),
            Observation("timeout_error_ms", maxError / 1e6, "ms"),
        ]
    }
}
