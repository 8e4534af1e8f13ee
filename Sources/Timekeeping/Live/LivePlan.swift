import Foundation
import Measurement

/// What the parent asks a live child to run, passed as a JSON file (not as arguments, so nothing
/// depends on how the preloaded libraries treat the command line).
public struct LivePlan: Codable, Sendable {
    public var scenario: SkewScenario
    /// The scenario's events moved onto the short live timeline (seconds since the child started).
    public var events: [SkewEvent]
    public var duration: Double
    public var clients: [ClientKind]
    public var sources: [ClockKind]
    public var seed: UInt64
    public var parameters: ClientParameters
    public var timestampFile: String
    public var resultFile: String
    public var readCostIterations: Int
    public var readCostRepetitions: Int

    /// When clients stop generating work (true ns): early enough that the longest client (TTL
    /// lookups up to 2 × TTL after an insert) finishes before the run ends.
    public var workEnd: Int64 {
        max(ClockSchedule.ns(0.5), ClockSchedule.ns(duration) - ClockSchedule.ns(2 * parameters.ttlSeconds + 0.1))
    }

    /// The same run in the simulation: the live events as a scenario whose clients work in
    /// `[0, workEnd)`, for comparing the model with what really happened. The simulated slews move
    /// CLOCK_MONOTONIC too, as the kernel would; libfaketime's only move the wall clock.
    public var simulatedScenario: SkewScenario {
        SkewScenario(
            name: scenario.name,
            summary: scenario.summary,
            events: events,
            duration: duration,
            activeWindows: [0...(Double(workEnd) / 1e9)]
        )
    }

    /// Places `scenario`'s events on a live timeline of `duration` seconds: the first event lands
    /// at `firstAt` seconds and the rest keep their spacing; events past the end are dropped.
    /// Suspends and oscillator drift cannot be faked for one process and are refused.
    public static func liveEvents(
        for scenario: SkewScenario,
        duration: Double,
        firstAt: Double
    ) throws(LiveError) -> (events: [SkewEvent], dropped: Int) {
        if let bad = scenario.events.first(where: { $0.kind == .suspend || $0.kind == .drift }) {
            throw LiveError(
                "scenario '\(scenario.name)' has a \(bad.kind.rawValue), which libfaketime cannot fake for one process; live mode replays steps and slews only"
            )
        }
        guard let first = scenario.events.first?.at else { return ([], 0) }
        var kept: [SkewEvent] = []
        var dropped = 0
        for e in scenario.events {
            var moved = e
            moved.at = e.at - first + firstAt
            if moved.at < duration { kept.append(moved) } else { dropped += 1 }
        }
        return (kept, dropped)
    }
}

/// What a live child reports back.
public struct LiveResult: Codable, Sendable {
    public struct Run: Codable, Sendable {
        public var client: ClientKind
        public var source: ClockKind
        public var metrics: [Metric]
    }
    public struct Metric: Codable, Sendable {
        public var metric: String
        public var value: Double
        public var unit: String
    }
    public var runs: [Run]
    /// The first broken rule of `TimingClientContract` among the runs, if a client broke one:
    /// the parent fails the item with it.
    public var violation: ContractViolation?
    public var readCosts: [ReadCost.Sample]
    /// Largest difference between the wall-clock offset the scenario asked for and the one the
    /// process saw (CLOCK_REALTIME − CLOCK_MONOTONIC against its value at the start), in ms.
    public var wallOffsetErrorMs: Double
    /// Whether the timerfd shim's marker symbol was visible in the child.
    public var shimLoaded: Bool
    public var polls: Int
    public var maxPollGapMs: Double
}

public struct LiveError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
