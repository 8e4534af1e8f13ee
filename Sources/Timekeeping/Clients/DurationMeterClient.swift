import Records
import Simulation

/// Times jobs of known true length with `end − start` on its clock, like
/// `let start = Date(); work(); log(Date().timeIntervalSince(start))`.
public struct DurationMeterClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable {
        case start(Int)
        case end(Int)
    }
    public static var kind: ClientKind { .durationMeter }

    let clock: Clock
    var startReading: [Int: Int64] = [:]
    var startTrue: [Int: Int64] = [:]
    /// (measured, true) elapsed nanoseconds per finished job.
    var results: [(measured: Int64, truth: Int64)] = []
    /// (true start, true end, measured) per finished job, when recording a trace.
    var measured: [(start: Int64, end: Int64, measured: Int64)]?

    public init(clock: Clock, parameters: ClientParameters) { self.clock = clock }

    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        var rng = plan.generator(for: kind)
        let p = plan.parameters
        let logMin = DeterministicMath.log(p.jobMinSeconds), logMax = DeterministicMath.log(p.jobMaxSeconds)
        var events: [Timed<Event>] = []
        for i in 0..<p.jobCount {
            let start = plan.uniformTime(&rng)
            let length = DeterministicMath.exp(logMin + (logMax - logMin) * rng.nextUnit())
            // A job whose end falls in a suspend ends when the machine wakes.
            let end = plan.resume(start + nanoseconds(length))
            events.append(Timed(start, .start(i)))
            events.append(Timed(end, .end(i)))
        }
        return sortedWorkload(events)
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        switch event {
        case .start(let i):
            startReading[i] = clock.now()
            startTrue[i] = trueTime
        case .end(let i):
            guard let s = startReading.removeValue(forKey: i), let st = startTrue.removeValue(forKey: i) else { return }
            let m = clock.elapsed(from: s, to: clock.now())
            results.append((m, trueTime - st))
            measured?.append((st, trueTime, m))
        }
    }

    public var wakeDeadline: Int64? { nil }
    public mutating func wake(trueTime: Int64) {}

    public func observations(_ context: ScoringContext) -> [Observation] {
        var negative = 0, maxAbs = 0.0, sumAbs = 0.0, maxRel = 0.0
        for r in results {
            if r.measured < 0 { negative += 1 }
            let err = abs(Double(r.measured) - Double(r.truth))
            maxAbs = max(maxAbs, err)
            sumAbs += err
            if r.truth > 0 { maxRel = max(maxRel, err / Double(r.truth)) }
        }
        return [
            Observation("measurements", Double(results.count), "count"),
            Observation("negative_durations", Double(negative), "count"),
            Observation("max_abs_error_us", maxAbs / 1e3, "us"),
            Observation("mean_abs_error_us", results.isEmpty ? 0 : sumAbs / Double(results.count) / 1e3, "us"),
            Observation("max_rel_error", maxRel, "ratio"),
        ]
    }
}
