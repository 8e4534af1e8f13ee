import ArgumentParser
import BenchCommandLine
import Records
import Throttling

/// bench-throttle's own options, on top of the shared `CommonOptions`; the workload validates them.
package struct ThrottleOptions: ParsableArguments {
    package init() {}

    @Option(help: "sim (virtual time, deterministic) or live (real threads and clocks).")
    var mode: RunMode = .sim

    @Option(
        help: ArgumentHelp(
            "Replay a trace instead of the named scenarios: a CSV (header time_ms,rows; gzip allowed), an xctrace export of the os-signpost table, or a Perfetto trace (told from the content).",
            valueName: "file"
        )
    )
    var trace: String?

    @Option(
        name: .customLong("trace-signpost"),
        help: ArgumentHelp(
            "The signpost or track-event name that marks one commit in an xctrace or Perfetto trace. (default: commit)",
            valueName: "name"
        )
    )
    var traceSignpost: String?

    @Option(
        name: .customLong("trace-process"),
        help: ArgumentHelp("The process whose commits --trace replays (default: the one with the most).", valueName: "name")
    )
    var traceProcess: String?

    @Option(
        help: ArgumentHelp(
            "Device profiles for --trace runs, or to override the scenarios' (fast, mid, slow; comma-separated).",
            valueName: "name"
        )
    )
    var device: [String] = []

    @Option(name: .customLong("vsync-hz"), help: "Override the display refresh rate (Hz).")
    var vsyncHz: Int?

    @Option(help: ArgumentHelp("Override how long commits arrive, in seconds.", valueName: "s"), transform: decimalArgument)
    var duration: Double?

    @Option(
        help: ArgumentHelp("Replace the arrivals with Poisson at this many commits per second.", valueName: "per-s"),
        transform: decimalArgument
    )
    var rate: Double?

    @Option(name: .customLong("fixed-interval-ms"), help: "fixed-rate's timer interval (ms). (default: 100.0)", transform: decimalArgument)
    var fixedIntervalMs: Double = 100

    @Option(
        name: .customLong("debounce-ms"),
        help: "signal-last-only's and throttle-first-last's interval, debounce-last's quiet period (ms). (default: 100.0)",
        transform: decimalArgument
    )
    var debounceMs: Double = 100

    @Option(
        name: .customLong("max-age-ms"),
        help: "frame-budget's bound on the oldest pending change's age (ms). (default: 30.0)",
        transform: decimalArgument
    )
    var maxAgeMs: Double = 30

    @Option(name: .customLong("background-threads"), help: "Live mode: threads burning CPU beside the main loop.")
    var backgroundThreads: Int = 0

    @Option(
        help: ArgumentHelp(
            "What the app does with a publish, for every policy: conversation (Signal's CVLoadCoordinator: merged load requests, one load in flight, built off main) or observer (applied on main at once).",
            valueName: "observer|conversation"
        )
    )
    var pipeline: String = "conversation"

    /// The options as the workload's configuration.
    var configuration: ThrottleConfiguration {
        var c = ThrottleConfiguration()
        (c.mode, c.tracePath, c.devices, c.vsyncHz) = (mode, trace, CommonOptions.splitList(device), vsyncHz)
        (c.duration, c.rate, c.backgroundThreads, c.pipeline) = (duration, rate, backgroundThreads, pipeline)
        (c.fixedIntervalMs, c.debounceMs, c.maxAgeMs) = (fixedIntervalMs, debounceMs, maxAgeMs)
        (c.traceSignpost, c.traceProcess) = (traceSignpost, traceProcess)
        return c
    }
}
