import Foundation

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

    /// Places `scenario`'s events on a live timeline of `duration` seconds: the first event lands
    /// at `firstAt` seconds and the rest keep their spacing; events past the end are dropped.
    /// Suspends and oscillator drift cannot be faked for one process and are refused.
    public static func liveEvents(for scenario: SkewScenario, duration: Double, firstAt: Double) throws(LiveError) -> (events: [SkewEvent], dropped: Int) {
        if let bad = scenario.events.first(where: { $0.kind == .suspend || $0.kind == .drift }) {
            throw LiveError("scenario '\(scenario.name)' has a \(bad.kind.rawValue), which libfaketime cannot fake for one process; live mode replays steps and slews only")
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
