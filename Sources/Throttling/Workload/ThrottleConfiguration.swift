import Simulation

/// bench-throttle's own settings, as plain values: what the command line resolved, before the
/// matrix is built. The executable fills it in; the workload validates combinations.
public struct ThrottleConfiguration: Sendable {
    public enum Mode: String, CaseIterable, Sendable { case sim, live }

    public var mode: Mode = .sim
    /// Replay this CSV (`time_ms,rows`) instead of the named scenarios.
    public var tracePath: String?
    /// Device profiles for `--trace`, or to override the scenarios' (empty: the scenarios' own).
    public var devices: [String] = []
    public var vsyncHz: Int?
    /// Seconds of arrivals, overriding the scenarios'.
    public var duration: Double?
    /// Poisson commits per second, replacing the scenarios' arrivals.
    public var rate: Double?
    public var policyParameters = ThrottlePolicy.Parameters()
    /// Live mode: threads burning CPU beside the main loop.
    public var backgroundThreads = 0

    public init() {}
}
