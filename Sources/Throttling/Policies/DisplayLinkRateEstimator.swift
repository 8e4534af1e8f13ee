import Simulation

/// Signal's estimate of its display link's frequency, reproduced exactly — including its bias.
///
/// Signal keeps the timestamps of the last 5 s of ticks and estimates the rate as
/// `count / (last − first)`. The timestamps bound `count − 1` intervals, not `count`, so the
/// estimate is high by a factor `count / (count − 1)`: with 2 samples 50 ms apart it reads 40 Hz
/// instead of 20 Hz. Because samples are also cleared whenever the pending set empties, the
/// estimator usually holds only a few samples, where this bias is largest: a main thread has to
/// be quite blocked before Signal's formula sees the link drop below 20 Hz at all.
public struct DisplayLinkRateEstimator: Sendable {
    public static let window = SimDuration.seconds(5)
    var samples = TimeWindow(length: window)

    public init() {}

    public var count: Int { samples.count }

    public mutating func record(_ time: SimInstant) { samples.record(time) }

    public mutating func clear() { samples.clear() }

    /// Ticks per second as Signal computes it, or nil with fewer than 2 samples.
    public var frequency: Double? {
        guard count >= 2, let first = samples.first, let last = samples.last else { return nil }
        let span = (last - first).seconds
        guard span > 0 else { return nil }
        return Double(count) / span
    }
}
