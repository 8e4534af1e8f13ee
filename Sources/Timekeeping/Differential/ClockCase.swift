import Differential
import Measurement
import Simulation

/// bench-clock's differential case: one timing client working while the clock is stepped, slewed,
/// drifting or suspended, run on two clock sources (the variants) by the workload's own
/// `SimRunner` in virtual time. The skew events are what a `--skew` file holds; the run lasts until
/// 60 s after the last one ends, as a file's does.
///
/// **Its log**: the run's timeline in time order (ties in recorded order): what the client did on
/// its track (each slice and instant at the virtual nanosecond it started, with its track and
/// duration) and the skew schedule on the `clock` track; then one `outcome` event with every
/// metric the run reports (the clock error the client saw). The error counter is left out: the
/// metrics sum it up. A broken client contract adds a `violation` event.
public struct ClockCase: DifferentialCase, Hashable {
    /// The timing client (`ClientKind`: `timeout`, `rate-limiter`, `ttl-cache`, …).
    public var client: String
    /// The seed of the client's own work.
    public var seed: UInt64
    /// The skew events, as a `--skew` file's rows.
    public var events: [SkewEvent]

    public static let workload = "clock"

    public var size: Int { events.count }

    /// A random client, 1–4 valid skew events in the first 300 s: steps of ±0.5–3,600 s, slews of
    /// ±500 ppm over 1–100 s, suspensions of 1–300 s, drifts of ±100 ppm.
    public static func random(_ g: inout SeededGenerator) -> ClockCase {
        let clients = ClientKind.allCases
        let client = clients[Int(g.nextInt(in: 0...Int64(clients.count - 1)))]
        var events: [SkewEvent] = []
        for _ in 0..<Int(g.nextInt(in: 1...4)) {
            let at = Double(g.nextInt(in: 0...300_000)) / 1_000
            let sign: Double = g.nextUnit() < 0.5 ? -1 : 1
            let event: SkewEvent
            switch g.nextInt(in: 0...3) {
            case 0: event = .step(at: at, by: sign * Double(g.nextInt(in: 500...3_600_000)) / 1_000)
            case 1: event = .slew(at: at, ppm: sign * Double(g.nextInt(in: 1...500)), for: Double(g.nextInt(in: 1...100)))
            case 2: event = .suspend(at: at, for: Double(g.nextInt(in: 1...300)))
            default: event = .drift(at: at, ppm: sign * Double(g.nextInt(in: 1...100)))
            }
            let candidate = (events + [event]).sorted { $0.at < $1.at }
            if Self.isValid(candidate) { events = candidate }
        }
        return ClockCase(client: client.rawValue, seed: g.next(), events: events)
    }

    /// Whether a `--skew` file with these rows would be accepted.
    static func isValid(_ events: [SkewEvent]) -> Bool {
        events.allSatisfy { $0.problem() == nil } && ClockSchedule.conflict(in: events) == nil
    }

    /// Drop an event; halve its time, its size (step, ppm) or its duration; keep only valid cases.
    public var shrinkCandidates: [ClockCase] {
        var out: [ClockCase] = []
        func with(_ change: (inout [SkewEvent]) -> Void) {
            var copy = events
            change(&copy)
            if Self.isValid(copy) { out.append(ClockCase(client: client, seed: seed, events: copy)) }
        }
        for i in events.indices {
            with { $0.remove(at: i) }
            if events[i].at >= 1 { with { $0[i].at = ($0[i].at / 2).rounded(.down) } }
            if abs(events[i].value) >= 1 { with { $0[i].value = ($0[i].value / 2).rounded(.towardZero) } }
            if events[i].duration >= 2 { with { $0[i].duration = ($0[i].duration / 2).rounded(.down) } }
        }
        return out
    }

    /// Runs the client on the variant's clock source through the skew events.
    public func observe(_ source: ClockKind) -> [ObservedEvent] {
        let scenario = SkewScenario.fromFile(name: "differential", events: events)
        let run = SimRunner.record(
            scenario: scenario,
            schedule: ClockSchedule(scenario: scenario),
            client: ClientKind(rawValue: client) ?? .timeout,
            source: source,
            seed: seed,
            trace: true
        )
        return ObservedLog.closed(
            ObservedLog.inTimeOrder(ObservedLog.events(of: run.trace)),
            outcome: run.observations.map { "\($0.metric)=\($0.value)" }.joined(separator: " "),
            violation: run.violation
        )
    }
}
