import Records

/// bench-clock's own settings, as plain values.
package struct ClockConfiguration: Sendable {
    package typealias Mode = RunMode

    package var mode: Mode = .sim
    /// A skew CSV to run instead of the named scenarios.
    package var skewPath: String?
    /// Client names (empty: all).
    package var clients: [String] = []
    package var readCost = true
    package var readCostRepetitions = 7
    /// Seconds each live scenario runs.
    package var liveDuration = 5.0
    package var liveWithoutShim = false
    /// The program and leading arguments that run a live child (`LiveHarness.runChild`).
    package var liveChildCommand: [String] = []

    package init() {}

    /// Scenarios live mode runs when none is named: the steps that break wall-clock code.
    package static let defaultLiveScenarios = ["leap-second", "step-minus-1h", "step-plus-1h"]
    /// `--quick`: a smoke test over one scenario of each kind (sim), or the leap second (live).
    package static let quickScenarios = [
        "none", "leap-second", "step-minus-1h", "chrony-slew-83333ppm", "strobe-50ms-500ms", "suspend-10min",
    ]
}
