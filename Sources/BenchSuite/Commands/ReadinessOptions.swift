import ArgumentParser
import BenchCommandLine
import Foundation
import Readiness
import Records
import Simulation

/// bench-readiness's own options, on top of the shared `CommonOptions`.
package struct ReadinessOptions: ParsableArguments {
    package init() {}

    @Option(help: "sim (virtual time, deterministic) or live (real threads, CPU, timers and child processes).")
    var mode: RunMode = .sim

    @Option(
        help: ArgumentHelp(
            "How the ~200 services are built: eager, lazy-registry, lazy-once (comma-separated; default all).",
            valueName: "name"
        )
    )
    var globals: [String] = []

    @Option(name: .customLong("display-hz"), help: "The display's refresh rate (Hz).")
    var displayHz: Int?

    @Option(
        name: .customLong("input-rate"),
        help: ArgumentHelp("Taps and scrolls per second (Poisson, open loop).", valueName: "per-s"),
        transform: decimalArgument
    )
    var inputRate: Double?

    @Option(
        name: .customLong("input-bound-ms"),
        help: "frame-aware: the longest estimated delay deferred work may impose on input (ms). (default: 100.0)",
        transform: decimalArgument
    )
    var inputBoundMs: Double = 100

    @Option(
        name: .customLong("long-quiet-ms"),
        help: "frame-aware: input silence a block estimated above the bound waits for (ms). (default: 500.0)",
        transform: decimalArgument
    )
    var longQuietMs: Double = 500

    @Option(
        name: .customLong("watchdog-s"),
        help: "Live: seconds before a probe's child process counts as deadlocked and is killed. (default: 2.0)",
        transform: decimalArgument
    )
    var watchdogSeconds: Double = 2

    @Option(
        help: ArgumentHelp(
            "Build the launch's blocks from a recorded launch: an xctrace export of the os-signpost table or a Perfetto trace, one block per signposted interval (docs/from-instruments.md).",
            valueName: "file"
        )
    )
    var trace: String?

    @Option(
        name: .customLong("trace-process"),
        help: ArgumentHelp("The process whose intervals --trace takes (default: the one with the most).", valueName: "name")
    )
    var traceProcess: String?

    @Option(help: "Live: child processes per variant and probe in reentrant-tasks.")
    var attempts: Int = 2

    @Option(name: .customLong("racing-threads"), help: "Live: threads racing through first use in concurrent-first-use.")
    var racingThreads: Int = 8

    package func validate() throws {
        if let displayHz, !(1...1000).contains(displayHz) {
            throw ValidationError("--display-hz must be between 1 and 1000, got \(displayHz)")
        }
        if let inputRate, !(inputRate.isFinite && inputRate >= 0 && inputRate <= 1000) {
            throw ValidationError("--input-rate must be between 0 and 1000 per second, got \(inputRate)")
        }
        for (value, flag) in [(inputBoundMs, "--input-bound-ms"), (longQuietMs, "--long-quiet-ms")]
        where !(value.isFinite && value > 0 && value <= 60_000) {
            throw ValidationError("\(flag) must be a positive number of ms up to 60000, got \(value)")
        }
        if !(watchdogSeconds.isFinite && watchdogSeconds > 0 && watchdogSeconds <= 600) {
            throw ValidationError("--watchdog-s must be between 0 and 600 seconds, got \(watchdogSeconds)")
        }
        if trace == nil, traceProcess != nil { throw ValidationError("--trace-process chooses what --trace reads: give --trace as well") }
        if !(1...100).contains(attempts) { throw ValidationError("--attempts must be between 1 and 100, got \(attempts)") }
        if !(2...256).contains(racingThreads) { throw ValidationError("--racing-threads must be between 2 and 256, got \(racingThreads)") }
    }

    /// The options as the workload's configuration; `child` runs one probe in a child process.
    func configuration(child: [String]) -> ReadinessConfiguration {
        var c = ReadinessConfiguration()
        c.mode = mode
        c.globals = CommonOptions.splitList(globals)
        c.displayHz = displayHz
        c.inputRate = inputRate
        c.frameAware.inputBound = .milliseconds(inputBoundMs)
        c.frameAware.longQuiet = .milliseconds(longQuietMs)
        c.watchdog = .seconds(watchdogSeconds)
        c.attempts = attempts
        c.racingThreads = racingThreads
        c.childCommand = child
        (c.tracePath, c.traceProcess) = (trace, traceProcess)
        return c
    }
}
