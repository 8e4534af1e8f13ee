import Records
import Simulation

/// bench-invalidation's own settings, as plain values, before the matrix is built.
public struct InvalidationConfiguration: Sendable {
    public typealias Mode = RunMode

    public var mode: Mode = .sim
    /// Seconds of arrivals, overriding the scenarios' (live default: 6 s).
    public var duration: Double?
    /// The main app's UI-refresh debounce (Signal: 3 s firstLast).
    public var debounceSeconds: Double = 3
    /// Mean of the exponential part of the notification delivery delay (ms), overriding the scenarios'.
    public var deliveryJitterMs: Double?
    /// Entries of the main app's model cache, overriding the scenarios'.
    public var cacheCapacity: Int?
    /// Live mode: the command that starts a child process (the binary and any leading arguments);
    /// the role arguments are appended. Required for `--mode live`.
    public var childCommand: [String] = []
    /// Live mode: where the database and channels live (default: a new temporary folder).
    public var liveDirectory: String?

    public init() {}
}
