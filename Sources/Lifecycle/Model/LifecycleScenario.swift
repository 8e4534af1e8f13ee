import Simulation

/// A named way sessions go (`--scenario`): how long the app stays in the foreground and the
/// background, how often the OS opens refresh windows, applies memory pressure or kills the app,
/// how often scene-phase events repeat, and how slow storage and launches get.
///
/// The rates are *assumptions* (no one publishes how often iOS reclaims an app); each scenario
/// turns one of them up so that one rule dominates. `trace` replays a `--trace` file instead.
package enum LifecycleScenario: String, Sendable, Hashable, CaseIterable {
    case everyday
    case memoryPressure = "memory-pressure"
    case sceneThrash = "scene-thrash"
    case slowDevice = "slow-device"
    case trace

    package var summary: String {
        switch self {
        case .everyday: "1-6 foreground visits per session, edits, refresh windows, occasional pressure and silent kills"
        case .memoryPressure: "as everyday, with memory pressure every ~2 min in the background (jetsam above the limit)"
        case .sceneThrash: "as everyday, every scene-phase event delivered twice half the time, inactive/active flips"
        case .slowDevice: "as everyday, 30% of saves stall 1.6-8 s, 5% of sessions bring a 5-30 s database migration"
        case .trace: "the sessions of a --trace file of transitions"
        }
    }

    /// The session shape a generated scenario draws from.
    package struct Shape: Sendable, Hashable {
        package var visits: ClosedRange<Int> = 1...6
        package var foregroundMeanSeconds = 60.0
        package var foregroundCapSeconds = 600.0
        package var editsPerSecond = 0.1
        package var backgroundMeanSeconds = 600.0
        package var backgroundCapSeconds = 3600.0
        package var refreshEverySeconds = 900.0
        package var pressureEverySeconds = 1800.0
        /// Chance a background visit ends in a silent kill instead of a resume.
        package var silentKill = 0.05
        /// Chance each scene-phase event is delivered twice; inactive/active flips per second.
        package var repeatPhase = 0.0
        package var flipsPerSecond = 0.0
        /// Chance a save stalls, and the stall's multiplier range.
        package var saveStall = 0.0
        package var stallFactor: ClosedRange<Double> = 20...100
        /// Chance a session's launch finds a migration pending, and its length (s).
        package var migration = 0.0
        package var migrationSeconds: ClosedRange<Double> = 5...30
    }

    package var shape: Shape {
        var s = Shape()
        switch self {
        case .everyday, .trace: break
        case .memoryPressure: s.pressureEverySeconds = 120
        case .sceneThrash:
            s.repeatPhase = 0.5
            s.flipsPerSecond = 1.0 / 20
        case .slowDevice:
            s.saveStall = 0.3
            s.migration = 0.05
        }
        return s
    }
}
