import Simulation

/// A sequence of cache reads (keys) arriving open-loop at a fixed interval, with the lifecycle
/// events that happen between them.
public struct AccessTrace: Sendable {
    /// The key of each read, in order.
    public var keys: [Int]
    /// `events[i]` happen just before read `i`.
    public var events: [(index: Int, event: LifecycleEvent)]
    /// Virtual time between two reads.
    public var interval: SimDuration

    public init(keys: [Int], events: [(index: Int, event: LifecycleEvent)] = [], interval: SimDuration) {
        self.keys = keys
        self.events = events
        self.interval = interval
    }

    /// The number of distinct keys (the working set's size).
    public var distinctKeys: Int { Set(keys).count }
}
