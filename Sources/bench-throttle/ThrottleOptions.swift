import ArgumentParser
import BenchCommandLine
import Simulation
import Throttling

/// bench-throttle's own options, on top of the shared `CommonOptions`.
struct ThrottleOptions: ParsableArguments {
    enum Mode: String, ExpressibleByArgument, CaseIterable { case sim, live }

    @Option(help: "sim (virtual time, deterministic) or live (real threads and clocks).")
    var mode: Mode = .sim

    @Option(help: ArgumentHelp("Replay a CSV trace with header time_ms,rows instead of the named scenarios.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Device profiles for --trace runs, or to override the scenarios' (fast, mid, slow; comma-separated).", valueName: "name"))
    var device: [String] = []

    @Option(name: .customLong("vsync-hz"), help: "Override the display refresh rate (Hz).")
    var vsyncHz: Int?

    @Option(help: ArgumentHelp("Override how long commits arrive, in seconds.", valueName: "s"))
    var duration: Double?

    @Option(help: ArgumentHelp("Replace the arrivals with Poisson at this many commits per second.", valueName: "per-s"))
    var rate: Double?

    @Option(name: .customLong("fixed-interval-ms"), help: "fixed-rate's timer interval (ms).")
    var fixedIntervalMs: Double = 100

    @Option(name: .customLong("debounce-ms"), help: "signal-last-only's and throttle-first-last's interval, debounce-last's quiet period (ms).")
    var debounceMs: Double = 100

    @Option(name: .customLong("max-age-ms"), help: "frame-budget's bound on the oldest pending change's age (ms).")
    var maxAgeMs: Double = 30

    @Option(name: .customLong("background-threads"), help: "Live mode: threads burning CPU beside the main loop.")
    var backgroundThreads: Int = 0

    @Option(help: ArgumentHelp(
        "What the app does with a publish, for every policy: conversation (Signal's CVLoadCoordinator: merged load requests, one load in flight, built off main) or observer (applied on main at once).",
        valueName: "observer|conversation"))
    var pipeline: String = ThrottlePipeline.conversation.rawValue

    func validate() throws {
        func positive(_ value: Double?, _ flag: String) throws {
            guard let value else { return }
            guard value.isFinite, value > 0 else {
                throw ValidationError("\(flag) must be a positive finite number, got \(value)")
            }
        }
        try positive(duration, "--duration")
        try positive(rate, "--rate")
        try positive(fixedIntervalMs, "--fixed-interval-ms")
        try positive(debounceMs, "--debounce-ms")
        try positive(maxAgeMs, "--max-age-ms")
        if let duration, duration > 86_400 { throw ValidationError("--duration must be at most 86400 s, got \(duration)") }
        if let rate, rate > 1_000_000 { throw ValidationError("--rate must be at most 1000000 commits/s, got \(rate)") }
        for (value, flag) in [(fixedIntervalMs, "--fixed-interval-ms"), (debounceMs, "--debounce-ms"), (maxAgeMs, "--max-age-ms")]
        where value > 3_600_000 {
            throw ValidationError("\(flag) must be at most 3600000 ms, got \(value)")
        }
        if let vsyncHz, !(1...1000).contains(vsyncHz) {
            throw ValidationError("--vsync-hz must be between 1 and 1000, got \(vsyncHz)")
        }
        if ThrottlePipeline(rawValue: pipeline) == nil {
            let known = ThrottlePipeline.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--pipeline must be one of \(known), got '\(pipeline)'")
        }
        if !(0...256).contains(backgroundThreads) {
            throw ValidationError("--background-threads must be between 0 and 256, got \(backgroundThreads)")
        }
    }

    /// The options as the workload's configuration.
    var configuration: ThrottleConfiguration {
        var c = ThrottleConfiguration()
        c.mode = mode == .live ? .live : .sim
        c.tracePath = trace
        c.devices = CommonOptions.splitList(device)
        c.vsyncHz = vsyncHz
        c.duration = duration
        c.rate = rate
        c.policyParameters = parameters
        c.backgroundThreads = backgroundThreads
        return c
    }

    var parameters: ThrottlePolicy.Parameters {
        var p = ThrottlePolicy.Parameters()
        p.fixedInterval = .milliseconds(fixedIntervalMs)
        p.debounceInterval = .milliseconds(debounceMs)
        p.maxAge = .milliseconds(maxAgeMs)
        p.pipeline = ThrottlePipeline(rawValue: pipeline) ?? .conversation
        return p
    }
}
