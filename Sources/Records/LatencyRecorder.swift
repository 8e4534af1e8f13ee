import Histogram

/// Latency distribution in nanoseconds with bounded memory and an exact maximum.
///
/// HdrHistogram keeps 3 significant digits in a fixed number of buckets, so ten million samples
/// cost the same memory as ten; the exact max is tracked beside it because the tail is the point.
public struct LatencyRecorder: Sendable, Codable {
    // Usable from inline so that `record`, one call per delivered commit, is compiled into its
    // caller's loop rather than called across the module boundary.
    @usableFromInline var histogram: Histogram<UInt64>
    @usableFromInline var _count: UInt64 = 0
    @usableFromInline var _exactMax: Int64 = 0
    @usableFromInline var _sum: Double = 0

    public var count: UInt64 { _count }
    public var exactMax: Int64 { _exactMax }
    public var sum: Double { _sum }

    // The stored names of before, so the encoded form is unchanged.
    enum CodingKeys: String, CodingKey {
        case histogram
        case _count = "count"
        case _exactMax = "exactMax"
        case _sum = "sum"
    }

    /// Tracks 1 µs … 1 hour at 3 significant digits; larger values are clamped into the top bucket
    /// (and still reported exactly by `exactMax`).
    public init() {
        histogram = Histogram(
            lowestDiscernibleValue: 1_000,
            highestTrackableValue: 3_600_000_000_000,
            numberOfSignificantValueDigits: .three
        )
    }

    @inlinable public mutating func record(nanoseconds: Int64) {
        let v = max(nanoseconds, 0)
        histogram.record(UInt64(min(v, 3_600_000_000_000)))
        _count += 1
        _sum += Double(v)
        if v > _exactMax { _exactMax = v }
    }

    /// The value at `percentile` (0…100) in nanoseconds, to 3 significant digits; 0 when empty.
    public func percentile(_ percentile: Double) -> Int64 {
        count == 0 ? 0 : Int64(histogram.valueAtPercentile(percentile))
    }

    public var mean: Double { count == 0 ? 0 : sum / Double(count) }
}
