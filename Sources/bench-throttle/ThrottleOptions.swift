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

    @Option(help: ArgumentHelp("Write the per-update timeline (time, policy, rows, reset, frame lateness) to this CSV.", valueName: "file"))
    var events: String?

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

    @Option(name: .customLong("debounce-ms"), help: "debounce-last's quiet period and throttle-first-last's interval (ms).")
    var debounceMs: Double = 100

    @Option(name: .customLong("max-age-ms"), help: "frame-budget's bound on the oldest pending change's age (ms).")
    var maxAgeMs: Double = 30

    @Option(name: .customLong("background-threads"), help: "Live mode: threads burning CPU beside the main loop.")
    var backgroundThreads: Int = 0

    /// The shortest interval a policy flag takes, in ms: 1 µs. Anything below rounds to 0 ns in
    /// the integer-nanosecond simulation, which a policy cannot work with.
    static let minimumIntervalMs = 0.001
    /// The shortest `--duration`, in seconds: a few frames even at 60 Hz, so a run is never empty.
    static let minimumDuration = 0.1

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
        if let duration, duration < Self.minimumDuration {
            throw ValidationError("--duration must be at least \(Self.minimumDuration) s (a shorter run holds no frame to measure), got \(duration)")
        }
        if let rate, rate > 1_000_000 { throw ValidationError("--rate must be at most 1000000 commits/s, got \(rate)") }
        if let rate, let duration, rate * duration < 1 {
            throw ValidationError("--rate \(rate) for --duration \(duration) s expects \(rate * duration) commits, fewer than one: the run would be empty")
        }
        for (value, flag) in [(fixedIntervalMs, "--fixed-interval-ms"), (debounceMs, "--debounce-ms"), (maxAgeMs, "--max-age-ms")] {
            if value > 3_600_000 { throw ValidationError("\(flag) must be at most 3600000 ms, got \(value)") }
            if value < Self.minimumIntervalMs {
                throw ValidationError("\(flag) must be at least \(Self.minimumIntervalMs) ms (1 µs), got \(value)")
            }
        }
        if let vsyncHz, !(1...1000).contains(vsyncHz) {
            throw ValidationError("--vsync-hz must be between 1 and 1000, got \(vsyncHz)")
        }
        if !(0...256).contains(backgroundThreads) {
            throw ValidationError("--background-threads must be between 0 and 256, got \(backgroundThreads)")
        }
        if trace != nil {
            // A trace fixes the arrivals and their span: these would be silently ignored.
            if rate != nil { throw ValidationError("--rate cannot be combined with --trace: the trace is the arrivals") }
            if duration != nil { throw ValidationError("--duration cannot be combined with --trace: the trace's span is the duration") }
        }
    }

    /// The checks that need the chosen scenarios: a flag with no effect on one of them, or a rate
    /// that leaves one empty, is an error rather than a number recorded in the JSON for nothing.
    /// `scenarios` are the resolved scenarios before `--duration`/`--rate` are applied.
    func checkEffect(on scenarios: [ThrottleScenario], quick: Bool) throws {
        if let duration, rate == nil {
            // A sync storm with no arrivals after it stops at its own end: a longer --duration
            // changes nothing (a shorter one cuts the storm, which is an effect).
            let unaffected = scenarios.filter { s in
                if case let .syncStorm(_, _, _, storm, after) = s.arrivals { return after == 0 && duration >= storm }
                return false
            }
            if let first = unaffected.first, case let .syncStorm(_, _, _, storm, _) = first.arrivals {
                throw BenchFailure.usage(
                    "--duration \(duration) has no effect on \(unaffected.map(\.name).joined(separator: ", ")): a sync storm stops after "
                        + "\(storm) s; choose other scenarios with --scenario, a --duration below \(storm) s, or add --rate"
                )
            }
        }
        if let rate, duration == nil {
            for s in scenarios {
                let seconds = quick ? s.duration.seconds * 0.3 : s.duration.seconds
                guard rate * seconds >= 1 else {
                    throw BenchFailure.usage("--rate \(rate) over \(s.name)'s \(seconds) s expects fewer than one commit: the run would be empty")
                }
            }
        }
    }

    var parameters: ThrottlePolicy.Parameters {
        var p = ThrottlePolicy.Parameters()
        p.fixedInterval = .milliseconds(fixedIntervalMs)
        p.debounceInterval = .milliseconds(debounceMs)
        p.maxAge = .milliseconds(maxAgeMs)
        return p
    }
}
