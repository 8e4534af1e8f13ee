import Records
import Simulation

/// Accumulates one run's measurements as it goes, in memory bounded by the model (histograms and
/// running sums), never by the number of commits.
///
/// Every metric's exact definition is in docs/bench-throttle.md; the names here are the CSV's.
public struct ThrottleMetrics: Sendable, Codable {
    public var latency = LatencyRecorder()
    public var commits = 0
    public var delivered = 0
    /// View updates: incremental updates applied on main, and loads landed on main.
    public var updates = 0
    /// Publishes the throttle let through (each took everything committed, or a prefix).
    public var publishes = 0
    /// Loads built off the main thread (resets in the observer pipeline, every load in the
    /// conversation pipeline).
    public var loads = 0
    public var offMainCPU = SimDuration.zero
    public var updateRows = 0
    public var maxUpdateRows = 0
    public var resets = 0
    public var updateCPU = SimDuration.zero
    public var vsyncs = 0
    public var missedVsyncs = 0
    public var framesPresented = 0
    public var jankyFrames = 0
    public var janky2xFrames = 0
    public var frozenFrames = 0
    public var hitch = SimDuration.zero
    public var peakPendingRows = 0
    var pendingRowNanoseconds: Double = 0  // ∫ pendingRows dt
    var lastPendingChange = SimInstant.zero
    public var lastArrival: SimInstant?
    public var lastDelivery: SimInstant?
    public var end = SimInstant.zero
    public var events = 0

    static let frozenThreshold = SimDuration.milliseconds(700)

    public init() {}

    mutating func pendingChanged(from rows: Int, at time: SimInstant) {
        pendingRowNanoseconds += Double(rows) * Double((time - lastPendingChange).nanoseconds)
        lastPendingChange = time
    }

    mutating func presented(interval: SimDuration, frameInterval: SimDuration) {
        framesPresented += 1
        // Quantized to whole vsyncs, so "longer than one interval" means at least two; half an
        // interval of slack keeps rounding of non-integer nanosecond periods out of it.
        // The same slack keeps a 60 Hz grid's alternating 16 666 666 / 16 666 667 ns intervals
        // from counting as hitches.
        let half = frameInterval.nanoseconds / 2
        guard interval.nanoseconds > frameInterval.nanoseconds + half else { return }
        jankyFrames += 1
        hitch = hitch + (interval - frameInterval)
        if interval.nanoseconds > 2 * frameInterval.nanoseconds + half { janky2xFrames += 1 }
        if interval > Self.frozenThreshold { frozenFrames += 1 }
    }

    /// The run's values, in a fixed order, with units. Latency percentiles are omitted when
    /// nothing was delivered (there is no such value; a 0 would be a lie).
    public func observations(bytesPerRow: Int) -> [Observation] {
        let ms = 1e-6
        let runSeconds = max(end.seconds, 1e-9)
        var out: [Observation] = []
        if latency.count > 0 {
            out += [
                Observation("latency_p50_ms", Double(latency.percentile(50)) * ms, "ms"),
                Observation("latency_p90_ms", Double(latency.percentile(90)) * ms, "ms"),
                Observation("latency_p99_ms", Double(latency.percentile(99)) * ms, "ms"),
                Observation("latency_p999_ms", Double(latency.percentile(99.9)) * ms, "ms"),
                Observation("latency_max_ms", Double(latency.exactMax) * ms, "ms"),
                Observation("latency_mean_ms", latency.mean * ms, "ms"),
            ]
        }
        let meanPending = pendingRowNanoseconds / max(Double(end.nanoseconds), 1)
        out += [
            Observation("commits", Double(commits), "commits"),
            Observation("undelivered", Double(commits - delivered), "commits"),
            Observation("updates", Double(updates), "updates"),
            Observation("rows_per_update_mean", updates > 0 ? Double(updateRows) / Double(updates) : 0, "rows"),
            Observation("rows_per_update_max", Double(maxUpdateRows), "rows"),
            Observation("resets", Double(resets), "updates"),
            Observation("vsyncs", Double(vsyncs), "vsyncs"),
            Observation("missed_vsyncs", Double(missedVsyncs), "vsyncs"),
            Observation("janky_frames", Double(jankyFrames), "frames"),
            Observation("janky_2x_frames", Double(janky2xFrames), "frames"),
            Observation("frozen_frames", Double(frozenFrames), "frames"),
            Observation("hitch_ms_per_s", hitch.milliseconds / runSeconds, "ms/s"),
            Observation("update_cpu_ms", updateCPU.milliseconds, "ms"),
            Observation("publishes", Double(publishes), "publishes"),
            Observation("loads", Double(loads), "loads"),
            Observation("offmain_cpu_ms", offMainCPU.milliseconds, "ms"),
            Observation("pending_rows_peak", Double(peakPendingRows), "rows"),
            Observation("pending_rows_mean", meanPending, "rows"),
            Observation("pending_kib_peak", Double(peakPendingRows * bytesPerRow) / 1024, "KiB"),
            Observation("pending_kib_mean", meanPending * Double(bytesPerRow) / 1024, "KiB"),
        ]
        if let lastArrival, let lastDelivery, delivered == commits {
            out.append(Observation("drain_ms", max(lastDelivery - lastArrival, .zero).milliseconds, "ms"))
        }
        out.append(Observation("run_s", end.seconds, "s"))
        return out
    }
}
