import Foundation

/// How much trace a replay accepts: a span or a length whose simulation would run for hours is an
/// input error, said at the first line past the limit, not a run that never ends.
///
/// The simulation costs about one event per commit plus one per vsync (60–120 per simulated
/// second, for every policy and device), so the span bounds the run time however sparse the
/// trace. Both limits can be raised through the environment (see docs/limits.md).
public struct TraceLimits: Sendable, Hashable {
    /// The latest commit time accepted, in ms from the trace's zero.
    public var maximumSpanMs: Double
    /// The most commits accepted.
    public var maximumCommits: Int

    public init(maximumSpanMs: Double, maximumCommits: Int) {
        self.maximumSpanMs = maximumSpanMs
        self.maximumCommits = maximumCommits
    }

    /// 24 hours (the same as bench-throttle's largest `--duration`) and 100 million commits.
    public static let `default` = TraceLimits(maximumSpanMs: 86_400_000, maximumCommits: 100_000_000)
    /// No time in a trace can be beyond this, whatever the environment says.
    public static let hardMaximumTimeMs = 1e12

    public static let spanVariable = "PATTERNBENCH_MAX_TRACE_SPAN_MS"
    public static let commitsVariable = "PATTERNBENCH_MAX_TRACE_COMMITS"
    static let spanHint = "raise it with \(spanVariable) (docs/limits.md)"
    static let commitsHint = "raise it with \(commitsVariable) (docs/limits.md)"

    /// The default limits, raised or lowered by `PATTERNBENCH_MAX_TRACE_SPAN_MS` (up to 1e12) and
    /// `PATTERNBENCH_MAX_TRACE_COMMITS` (whole number ≥ 1).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(InputFileError) -> TraceLimits {
        var limits = TraceLimits.default
        if let text = environment[spanVariable] {
            guard let ms = StrictNumber.decimal(text), ms > 0, ms <= hardMaximumTimeMs else {
                throw InputFileError(
                    path: spanVariable,
                    message: "must be a number of milliseconds above 0 up to 1e12, got '\(InputFile.quote(text))'"
                )
            }
            limits.maximumSpanMs = ms
        }
        if let text = environment[commitsVariable] {
            guard let n = StrictNumber.whole(text), n >= 1 else {
                throw InputFileError(path: commitsVariable, message: "must be a whole number ≥ 1, got '\(InputFile.quote(text))'")
            }
            limits.maximumCommits = Int(n)
        }
        return limits
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
