import Measurement
import Records
import Simulation

/// bench-throttle's own settings, as plain values: what the command line gave, before the matrix
/// is built. The executable fills it in; `validate()` checks every field and their combinations.
public struct ThrottleConfiguration: Sendable {
    public typealias Mode = RunMode

    public var mode: Mode = .sim
    /// Replay this trace (a `time_ms,rows` CSV, optionally gzip-compressed; an `xctrace export`
    /// of the os-signpost table; a Perfetto trace) instead of the named scenarios.
    public var tracePath: String?
    /// The signpost or track-event name that marks one commit in an xctrace or Perfetto trace.
    public var traceSignpost: String?
    /// The process whose commits are replayed (nil: the one with the most).
    public var traceProcess: String?
    /// Device profiles for `--trace`, or to override the scenarios' (empty: the scenarios' own).
    public var devices: [String] = []
    public var vsyncHz: Int?
    /// Seconds of arrivals, overriding the scenarios'.
    public var duration: Double?
    /// Poisson commits per second, replacing the scenarios' arrivals.
    public var rate: Double?
    public var fixedIntervalMs = 100.0
    public var debounceMs = 100.0
    public var maxAgeMs = 30.0
    /// `observer` or `conversation`, as typed.
    public var pipeline = ThrottlePipeline.conversation.rawValue
    /// Live mode: threads burning CPU beside the main loop.
    public var backgroundThreads = 0

    public init() {}

    /// The shortest interval a policy flag takes, in ms: 1 µs. Anything below rounds to 0 ns in
    /// the integer-nanosecond simulation, which a policy cannot work with.
    public static let minimumIntervalMs = 0.001
    /// The shortest `--duration`, in seconds: a few frames even at 60 Hz, so a run is never empty.
    public static let minimumDuration = 0.1

    /// The policies' parameters (valid once `validate()` passed).
    public var policyParameters: ThrottleParameters {
        var p = ThrottleParameters()
        p.fixedInterval = .milliseconds(fixedIntervalMs)
        p.debounceInterval = .milliseconds(debounceMs)
        p.maxAge = .milliseconds(maxAgeMs)
        p.pipeline = ThrottlePipeline(rawValue: pipeline) ?? .conversation
        return p
    }

    /// Every field in range, and no combination that overflows, is empty or is silently ignored.
    public func validate() throws(BenchFailure) {
        func fail(_ message: String) -> BenchFailure { .usage(message) }
        for (value, flag) in [
            (duration, "--duration"), (rate, "--rate"), (fixedIntervalMs, "--fixed-interval-ms"),
            (debounceMs, "--debounce-ms"), (maxAgeMs, "--max-age-ms"),
        ] {
            if let value, !(value.isFinite && value > 0) { throw fail("\(flag) must be a positive finite number, got \(value)") }
        }
        if let duration, duration > 86_400 { throw fail("--duration must be at most 86400 s, got \(duration)") }
        if let duration, duration < Self.minimumDuration {
            throw fail("--duration must be at least \(Self.minimumDuration) s (a shorter run holds no frame to measure), got \(duration)")
        }
        if let rate, rate > 1_000_000 { throw fail("--rate must be at most 1000000 commits/s, got \(rate)") }
        if let rate, let duration, rate * duration < 1 {
            throw fail(
                "--rate \(rate) for --duration \(duration) s expects \(rate * duration) commits, fewer than one: the run would be empty"
            )
        }
        for (value, flag) in [(fixedIntervalMs, "--fixed-interval-ms"), (debounceMs, "--debounce-ms"), (maxAgeMs, "--max-age-ms")] {
            if value > 3_600_000 { throw fail("\(flag) must be at most 3600000 ms, got \(value)") }
            if value < Self.minimumIntervalMs { throw fail("\(flag) must be at least \(Self.minimumIntervalMs) ms (1 µs), got \(value)") }
        }
        if let vsyncHz, !(1...1000).contains(vsyncHz) { throw fail("--vsync-hz must be between 1 and 1000, got \(vsyncHz)") }
        if ThrottlePipeline(rawValue: pipeline) == nil {
            throw fail("--pipeline must be one of \(ThrottlePipeline.allCases.map(\.rawValue).joined(separator: ", ")), got '\(pipeline)'")
        }
        if !(0...256).contains(backgroundThreads) {
            throw fail("--background-threads must be between 0 and 256, got \(backgroundThreads)")
        }
        if tracePath == nil, traceSignpost != nil || traceProcess != nil {
            throw fail("--trace-signpost and --trace-process choose what --trace replays: give --trace as well")
        }
        if traceSignpost?.isEmpty == true { throw fail("--trace-signpost cannot be empty") }
        if tracePath != nil {
            // A trace fixes the arrivals and their span: these would be silently ignored.
            if rate != nil { throw fail("--rate cannot be combined with --trace: the trace is the arrivals") }
            if duration != nil { throw fail("--duration cannot be combined with --trace: the trace's span is the duration") }
        }
    }
}
