import Simulation

/// The parameters the suite's own policies take, and the app's second stage, the same for every
/// policy of a run (`--fixed-interval-ms`, `--debounce-ms`, `--max-age-ms`, `--pipeline`).
///
/// A variant's factory receives them; a user's policy may read them or ignore them.
public struct ThrottleParameters: Hashable, Sendable {
    public var fixedInterval: SimDuration = .milliseconds(100)
    public var debounceInterval: SimDuration = .milliseconds(100)
    public var maxAge: SimDuration = .milliseconds(30)
    /// What the app does with a publish (`--pipeline`); the same for every policy in a run.
    public var pipeline: ThrottlePipeline = .conversation
    public init() {}
}
