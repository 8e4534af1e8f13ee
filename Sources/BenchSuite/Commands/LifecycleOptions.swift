import ArgumentParser
import BenchCommandLine
import Foundation
import Lifecycle
import Records
import Simulation

/// bench-lifecycle's own options, on top of the shared `CommonOptions`. The OS parameters nobody
/// documents are flags (docs/bench-lifecycle.md, "Sources").
package struct LifecycleOptions: ParsableArguments {
    package init() {}

    @Option(help: "sim (virtual time, deterministic) or live (adds real child processes killed inside their saves).")
    var mode: RunMode = .sim

    @Option(help: "Sessions (process lifetimes) per item. (default: 200, 40 with --quick)")
    var sessions: Int?

    @Option(help: ArgumentHelp("Replay a file of '<time_ms> <transition>' lines (--scenario trace).", valueName: "file"))
    var trace: String?

    @Option(
        name: .customLong("bg-task-s"),
        help: "Background time a beginBackgroundTask buys (s; undocumented, ~30 observed). (default: 30.0)",
        transform: decimalArgument
    )
    var backgroundTaskSeconds: Double = 30

    @Option(
        name: .customLong("expiration-grace-s"),
        help: "Time an expiration handler may take before the app is killed (s; assumption). (default: 1.0)",
        transform: decimalArgument
    )
    var expirationGraceSeconds: Double = 1

    @Option(
        name: .customLong("resume-watchdog-s"),
        help: "Watchdog on resume (s; seen in crash reports, undocumented). (default: 10.0)",
        transform: decimalArgument
    )
    var resumeWatchdogSeconds: Double = 10

    @Option(
        name: .customLong("bg-limit-mb"),
        help: "Footprint above which jetsam kills a background app at memory pressure (MB; assumption). (default: 300.0)",
        transform: decimalArgument
    )
    var backgroundLimitMB: Double = 300

    @Option(
        name: .customLong("save-ms"),
        help: "A full save of the app's state before any stall (ms; assumption). (default: 80.0)",
        transform: decimalArgument
    )
    var saveMs: Double = 80

    @Option(
        name: .customLong("sync-failure"),
        help: "Chance a sync attempt fails (network; assumption). (default: 0.15)",
        transform: decimalArgument
    )
    var syncFailure: Double = 0.15

    @Option(help: "Live: kills per durability strategy and seed. (default: 40, 10 with --quick)")
    var kills: Int?

    package func validate() throws {
        if let sessions, !(1...100_000).contains(sessions) {
            throw ValidationError("--sessions must be between 1 and 100000, got \(sessions)")
        }
        for (value, flag, range) in [
            (backgroundTaskSeconds, "--bg-task-s", 0.001...3600.0), (expirationGraceSeconds, "--expiration-grace-s", 0.0...600.0),
            (resumeWatchdogSeconds, "--resume-watchdog-s", 0.001...600.0), (backgroundLimitMB, "--bg-limit-mb", 1.0...1_000_000.0),
            (saveMs, "--save-ms", 0.001...600_000.0), (syncFailure, "--sync-failure", 0.0...1.0),
        ] where !(value.isFinite && range.contains(value)) {
            throw ValidationError("\(flag) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
        if let kills, !(1...10_000).contains(kills) { throw ValidationError("--kills must be between 1 and 10000, got \(kills)") }
        if kills != nil, mode != .live { throw ValidationError("--kills applies to --mode live only") }
        if let trace, trace.isEmpty { throw ValidationError("--trace needs a file path") }
    }

    /// The options as the workload's configuration; `child` runs the live app.
    func configuration(child: [String]) -> LifecycleConfiguration {
        var c = LifecycleConfiguration()
        c.mode = mode
        c.sessions = sessions
        c.tracePath = trace
        c.rules.backgroundTask = .seconds(backgroundTaskSeconds)
        c.rules.expirationGrace = .seconds(expirationGraceSeconds)
        c.rules.resumeWatchdog = .seconds(resumeWatchdogSeconds)
        c.rules.backgroundMemoryLimitMB = backgroundLimitMB
        c.profile.fullSave = .milliseconds(saveMs)
        c.profile.syncFailure = syncFailure
        c.kills = kills
        c.childCommand = child
        return c
    }
}
