import Measurement

/// The timing core of Signal's adaptive UI-update throttle (`DatabaseChangeObserver`,
/// `publishUpdatesIfNecessary` and `targetPublishingOfUpdatesInterval`), which times itself with
/// `Date()`: is a publish allowed now?
///
/// As Signal's code does it: a display link at 20 fps appends a timestamp per tick; when the
/// interval is computed, samples are kept only if `abs(now − sample) < 5 s`; fewer than 2 samples,
/// or a first sample not earlier than the last (array order), give the fast interval; otherwise
/// f = count / (last − first), alpha = clamp01((20 − f) / (20 − 10)), target = lerp(0.05 s, 1 s,
/// alpha). A publish happens only if nothing was published before or
/// `abs(now − lastPublishStart) ≥ target`; when nothing is pending after a publish the link pauses
/// and its samples are cleared. Every comparison takes the absolute value, so a backward
/// wall-clock step makes the gate open at once (an early publish), never a stall. Only the clock
/// decisions are modelled here; the frame and main-thread model lives in Throttling.
///
/// Readings are compared as `Date` arithmetic does (signed differences), on whatever source the
/// client is built on, never through `ClockSource.elapsed`.
public struct AdaptiveUpdateGate<Clock: ClockSource> {
    let clock: Clock
    /// Tick timestamps in the order they were taken (not sorted: after a step they are not).
    public private(set) var samples: [Int64] = []
    public private(set) var lastPublishStart: Int64?
    public private(set) var linkRunning = false
    /// The smallest and largest sample: when both are within 5 s of now, so is every sample, which
    /// spares the filter's scan on almost every call.
    var lowest: Int64 = .max
    var highest: Int64 = .min

    public init(clock: Clock) { self.clock = clock }

    static var fastInterval: Int64 { 50_000_000 }
    static var slowInterval: Int64 { 1_000_000_000 }
    static var sampleWindow: UInt64 { 5_000_000_000 }

    /// `abs(a − b)` without overflow: Signal's `abs(date.timeIntervalSinceNow)`.
    @inline(__always)
    static func distance(_ a: Int64, _ b: Int64) -> UInt64 { (a &- b).magnitude }

    /// The target interval in nanoseconds for the current samples (filter them with
    /// `dropStaleSamples(now:)` first, as `mayPublish` does).
    public func target() -> Int64 {
        guard samples.count > 1, let first = samples.first, let last = samples.last, first < last else {
            return Self.fastInterval
        }
        let f = Double(samples.count) / (Double(last - first) / 1e9)
        let alpha = min(max((20 - f) / (20 - 10), 0), 1)
        return Self.fastInterval + Int64(ExactRounding.nearest(Double(Self.slowInterval - Self.fastInterval) * alpha))
    }

    /// Signal's filter: keep the samples with `abs(now − sample) < 5 s`.
    public mutating func dropStaleSamples(now: Int64) {
        guard !samples.isEmpty else { return }
        if Self.distance(now, lowest) < Self.sampleWindow, Self.distance(now, highest) < Self.sampleWindow { return }
        samples.removeAll { Self.distance(now, $0) >= Self.sampleWindow }
        lowest = samples.min() ?? .max
        highest = samples.max() ?? .min
    }

    /// A display-link tick: record the sample (Signal filters when it computes the interval).
    public mutating func tick() {
        guard linkRunning else { return }
        let now = clock.now()
        samples.append(now)
        lowest = min(lowest, now)
        highest = max(highest, now)
    }

    /// Whether a publish may start now. Mutating because, as in Signal, computing the interval
    /// drops the stale samples.
    public mutating func mayPublish() -> Bool {
        guard let last = lastPublishStart else { return true }
        let now = clock.now()
        dropStaleSamples(now: now)
        return Self.distance(now, last) >= UInt64(target())
    }

    public mutating func didPublish(pendingAfter: Bool) {
        lastPublishStart = clock.now()
        if !pendingAfter {
            linkRunning = false
            samples.removeAll()
            lowest = .max
            highest = .min
        }
    }

    public mutating func resumeLink() { linkRunning = true }

    /// The reading at which a publish becomes allowed with the current samples: now when the gate
    /// is already open (e.g. the clock was stepped back past `last − target`).
    public var nextAllowed: Int64? {
        guard let last = lastPublishStart else { return nil }
        let now = clock.now()
        let target = self.target()
        if Self.distance(now, last) >= UInt64(target) { return now }
        return last &+ target
    }
}

/// Commits arrive; the gate decides when the UI may update. Scored by how long commits waited.
public struct AdaptiveGateClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable { case commit, tick }
    public static var kind: ClientKind { .adaptiveGate }

    var gate: AdaptiveUpdateGate<Clock>
    var pending = 0
    var pendingSince: Int64?
    var publishes = 0
    var maxGap: Int64 = 0
    /// True time of the previous publish, and publishes that came sooner than the fastest target
    /// after it (only a clock that jumped can allow that).
    var lastPublishTrue: Int64?
    var earlyPublishes = 0
    /// (true time, commits published, the gate's target interval, early) per publish, when
    /// recording a trace.
    var published: [(time: Int64, commits: Int, target: Int64, early: Bool)]?
    let tolerance: Int64

    public init(clock: Clock, parameters: ClientParameters) {
        gate = AdaptiveUpdateGate(clock: clock)
        tolerance = nanoseconds(parameters.toleranceSeconds)
    }

    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        var rng = plan.generator(for: kind)
        var events = plan.poisson(rate: plan.parameters.commitsPerSecond, &rng).map { Timed<Event>($0, .commit) }
        let period = nanoseconds(1 / plan.parameters.displayLinkFPS)
        for w in plan.windows {
            var t = w.lowerBound + period
            while t < w.upperBound {
                events.append(Timed(t, .tick))
                t += period
            }
        }
        return sortedWorkload(events)
    }

    /// Signal's `publishUpdatesIfNecessary`: the gate first (which filters the samples), then an
    /// empty change set returns before anything is recorded.
    mutating func attemptPublish(trueTime: Int64) {
        guard gate.mayPublish(), pending > 0 else { return }
        publishes += 1
        var early = false
        if let previous = lastPublishTrue, trueTime - previous < AdaptiveUpdateGate<Clock>.fastInterval - tolerance {
            earlyPublishes += 1
            early = true
        }
        if published != nil { published!.append((trueTime, pending, gate.target(), early)) }
        lastPublishTrue = trueTime
        if let since = pendingSince { maxGap = max(maxGap, trueTime - since) }
        pending = 0
        pendingSince = nil
        gate.didPublish(pendingAfter: false)
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        switch event {
        case .commit:
            if pending == 0 { pendingSince = trueTime }
            pending += 1
            if !gate.linkRunning { gate.resumeLink() }
            attemptPublish(trueTime: trueTime)
        case .tick:
            gate.tick()
            attemptPublish(trueTime: trueTime)
        }
    }

    /// While something is pending the link keeps ticking, after the workload's own ticks too: the
    /// harness wakes the client when the gate opens, which stands for the next tick.
    public var wakeDeadline: Int64? { pending > 0 ? gate.nextAllowed : nil }

    public mutating func wake(trueTime: Int64) {
        gate.tick()
        attemptPublish(trueTime: trueTime)
    }

    public func observations(_ context: ScoringContext) -> [Observation] {
        var gap = maxGap
        if let since = pendingSince { gap = max(gap, context.horizon - since) }
        return [
            Observation("publishes", Double(publishes), "count"),
            Observation("max_publish_gap_ms", Double(gap) / 1e6, "ms"),
            Observation("unpublished_at_end", pending > 0 ? 1 : 0, "count"),
            Observation("publishes_early", Double(earlyPublishes), "count"),
        ]
    }
}
