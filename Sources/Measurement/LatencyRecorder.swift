import Histogram

/// Latency distribution in nanoseconds with bounded memory and an exact maximum.
///
/// HdrHistogram keeps 3 significant digits in a fixed number of buckets, so ten million samples
/// cost the same memory as ten; the exact max is tracked beside it because the tail is the point.
public struct LatencyRecorder: Sendable, Codable {
    var histogram: Histogram<UInt64>
    public private(set) var count: UInt64 = 0
    public private(set) var exactMax: Int64 = 0
    public private(set) var sum: Double = 0

    /// Tracks 1 µs … 1 hour at 3 significant digits; larger values are clamped into the top bucket
    /// (and still reported exactly by `exactMax`).
    public init() {
        histogram = Histogram(
            lowestDiscernibleValue: 1_000,
            highestTrackableValue: 3_600_000_000_000,
            numberOfSignificantValueDigits: .three
        )
    }

    public mutating func record(nanoseconds: Int64) {
        let v = max(nanoseconds, 0)
        histogram.record(UInt64(min(v, 3_600_000_000_000)))
        count += 1
        sum += Double(v)
        if v > exactMax { exactMax = v }
    }

    /// The value at `percentile` (0…100) in nanoseconds, to 3 significant digits; 0 when empty.
    public func percentile(_ percentile: Double) -> Int64 {
        count == 0 ? 0 : Int64(histogram.valueAtPercentile(percentile))
    }

    public var mean: Double { count == 0 ? 0 : sum / Double(count) }
}
