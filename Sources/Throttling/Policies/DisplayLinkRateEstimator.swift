import Simulation

/// Signal's estimate of its display link's frequency, reproduced exactly — including its bias.
///
/// Signal keeps the timestamps of the link's ticks and, when it computes the publish interval,
/// first drops those 5 s or more old (`abs(sample − now) < 5 s`), then estimates the rate as
/// `count / (last − first)`, or reports nothing (the fast interval) with fewer than 2 samples or
/// `first ≥ last`. The timestamps bound `count − 1` intervals, not `count`, so the estimate is high
/// by `count / (count − 1)`: 2 samples 50 ms apart read 40 Hz instead of 20 Hz. Samples are also
/// cleared whenever the link pauses, so how many it holds decides whether Signal ever backs off;
/// `SignalAdaptiveThrottler` records that count at every decision.
public struct DisplayLinkRateEstimator: Sendable {
    public static let window = SimDuration.seconds(5)
    var samples = TimeWindow(length: window)

    public init() {}

    /// Samples held (before any pruning against a later time).
    public var count: Int { samples.count }

    public mutating func record(_ time: SimInstant) { samples.record(time) }

    public mutating func clear() { samples.clear() }

    /// Drops samples 5 s or more before `now`, as Signal does before estimating.
    public mutating func prune(at now: SimInstant) { samples.prune(at: now) }

    /// Ticks per second as Signal computes it over the samples held, or nil (the fast interval).
    public var frequency: Double? {
        guard count >= 2, let first = samples.first, let last = samples.last, first < last else { return nil }
        return Double(count) / (last - first).seconds
    }

    /// Prunes against `now`, then estimates.
    public mutating func frequency(at now: SimInstant) -> Double? {
        prune(at: now)
        return frequency
    }
}
