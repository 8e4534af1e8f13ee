import Simulation

/// The parameters the suite's own policies take, and the app's second stage, the same for every
/// policy of a run (`--fixed-interval-ms`, `--debounce-ms`, `--max-age-ms`, `--pipeline`).
///
/// A variant's factory receives them; a user's policy may read them or ignore them.
public struct ThrottleParameters: Hashable, Sendable {
    /// `--fixed-interval-ms`: the interval of `fixed-rate`'s repeating timer.
    public var fixedInterval: SimDuration = .milliseconds(100)
    /// `--debounce-ms`: the interval of the debouncing policies.
    public var debounceInterval: SimDuration = .milliseconds(100)
    /// `--max-age-ms`: the oldest a pending change may get under `frame-budget`.
    public var maxAge: SimDuration = .milliseconds(30)
    /// What the app does with a publish (`--pipeline`); the same for every policy in a run.
    public var pipeline: ThrottlePipeline = .conversation
    /// The defaults: 100 ms, 100 ms, 30 ms, the conversation pipeline.
    public init() {}
}
