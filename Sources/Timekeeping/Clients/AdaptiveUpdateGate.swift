import Simulation

/// The timing core of Signal's adaptive UI-update throttle (`DatabaseChangeObserver`,
/// `publishUpdatesIfNecessary` and `targetPublishingOfUpdatesInterval`), which times itself with
/// `Date()`: is a publish allowed now?
///
/// As Signal's code does it: a display link at 20 fps appends a timestamp per tick; when the
/// interval is computed, samples are kept only if `abs(now − sample) < 5 s`; fewer than 2 samples,
/// or a first sample not earlier than the last (array order), give the fast interval; otherwise
/// f = count / (last − first) and the interval is Signal's inverse lerp and lerp
/// (`SignalPublishInterval`). A publish happens only if nothing was published before or
/// `abs(now − lastPublishStart) ≥ interval`; when nothing is pending after a publish the link
/// pauses and its samples are cleared. Every comparison takes the absolute value, so a backward
/// wall-clock step makes the gate open at once (an early publish), never a stall. Only the clock
/// decisions are modelled here; the frame and main-thread model lives in Throttling.
///
/// Timestamps are `ClockStamp`s and every difference is taken in seconds as the time type takes
/// it: on `date` the `Date`s' own `Double` seconds, so an exact tie (`now − last` exactly the
/// interval in true time) passes or fails as Signal's does, depending on where both instants fall
/// on `Date`'s 2^−23 s grid; on the integer clocks the nanosecond difference converted once, so a
/// whole-nanosecond tie passes. Never through `ClockSource.elapsed`.
public struct AdaptiveUpdateGate<Clock: ClockSource> {
    let clock: Clock
    /// Tick timestamps in the order they were taken (not sorted: after a step they are not).
    public private(set) var samples: [ClockStamp] = []
    public private(set) var lastPublishStart: ClockStamp?
    public private(set) var linkRunning = false
    /// The smallest and largest sample: when both are within 5 s of now, so is every sample, which
    /// spares the filter's scan on almost every call.
    var lowest: ClockStamp?
    var highest: ClockStamp?

    public init(clock: Clock) { self.clock = clock }

    /// Signal's `maxWindowDuration`, in seconds.
    static var sampleWindow: Double { 5 }

    /// The interval in seconds for the current samples (filter them with `dropStaleSamples(now:)`
    /// first, as `mayPublish` does). `last − first` is Signal's
    /// `abs(last.timeIntervalSinceNow − first.timeIntervalSinceNow)`: on `Date`s within 5 s of now
    /// both differences, and theirs, are exact, so the two are the same number.
    public func target() -> Double {
        guard samples.count > 1, let first = samples.first, let last = samples.last, first < last else {
            return SignalPublishInterval.interval(forFrequency: nil)
        }
        let frequency = Double(samples.count) / last.seconds(since: first)
        return SignalPublishInterval.interval(forFrequency: frequency)
    }

    /// Signal's filter: keep the samples with `abs(sample − now) < 5 s`.
    public mutating func dropStaleSamples(now: ClockStamp) {
        guard let lowest, let highest else { return }
        if Self.isRecent(lowest, now), Self.isRecent(highest, now) { return }
        samples.removeAll { !Self.isRecent($0, now) }
        self.lowest = samples.min()
        self.highest = samples.max()
    }

    @inline(__always)
    static func isRecent(_ sample: ClockStamp, _ now: ClockStamp) -> Bool {
        abs(sample.seconds(since: now)) < sampleWindow
    }

    /// A display-link tick: record the sample (Signal filters when it computes the interval).
    public mutating func tick() {
        guard linkRunning else { return }
        let now = clock.stamp()
        samples.append(now)
        lowest = lowest.map { min($0, now) } ?? now
        highest = highest.map { max($0, now) } ?? now
    }

    /// Whether a publish may start now. Mutating because, as in Signal, computing the interval
    /// drops the stale samples.
    public mutating func mayPublish() -> Bool {
        guard let last = lastPublishStart else { return true }
        let now = clock.stamp()
        dropStaleSamples(now: now)
        return SignalPublishInterval.isDue(elapsedSeconds: last.seconds(since: now), interval: target())
    }

    public mutating func didPublish(pendingAfter: Bool) {
        lastPublishStart = clock.stamp()
        if !pendingAfter {
            linkRunning = false
            samples.removeAll()
            lowest = nil
            highest = nil
        }
    }

    public mutating func resumeLink() { linkRunning = true }
}
