import Measurement

/// The timing core of Signal's adaptive UI-update throttle (`DatabaseChangeObserver`), which
/// times itself with `Date()`: is a publish allowed now?
///
/// Follows the signal-adaptive policy of the bench-throttle issue: a display link at 20 fps
/// records a timestamp per tick; samples older than 5 s are dropped; the estimated frequency is
/// f = sampleCount / (last − first) (fewer than 2 samples: the fast interval); alpha =
/// clamp01((20 − f) / (20 − 10)); target = lerp(0.05 s, 1.0 s, alpha). A publish is attempted after
/// each commit and on every tick and happens only if nothing was published before or at least
/// `target` has passed since the start of the last publish; when nothing is pending after a publish
/// the link pauses and its samples are cleared. Only the clock decisions are modelled here; the
/// frame and main-thread model lives in Throttling.
public struct AdaptiveUpdateGate<Clock: ClockSource> {
    let clock: Clock
    public private(set) var samples: [Int64] = []
    public private(set) var lastPublishStart: Int64?
    public private(set) var linkRunning = false

    public init(clock: Clock) { self.clock = clock }

    static var fastInterval: Int64 { 50_000_000 }
    static var slowInterval: Int64 { 1_000_000_000 }
    static var sampleWindow: Int64 { 5_000_000_000 }

    /// The target interval in nanoseconds for the current samples.
    public func target() -> Int64 {
        guard samples.count >= 2 else { return Self.fastInterval }
        let span = Double(clock.elapsed(from: samples.first!, to: samples.last!)) / 1e9
        // A zero span (or a backward step making it negative) gives ±inf; Signal's arithmetic
        // turns +inf into alpha 0 (fast) and a negative f into alpha 1 (slow). Keep that.
        let f = span == 0 ? Double.infinity : Double(samples.count) / span
        let alpha = min(max((20 - f) / (20 - 10), 0), 1)
        return Self.fastInterval + Int64((Double(Self.slowInterval - Self.fastInterval) * alpha).rounded())
    }

    /// The smallest sample: nothing can be older than 5 s unless this one is, which spares the
    /// scan on almost every tick (and keeps a stopped clock, whose samples pile up, linear).
    var oldestSample: Int64 = .max

    /// A display-link tick: record the sample and drop those older than 5 s.
    public mutating func tick() {
        guard linkRunning else { return }
        let now = clock.now()
        let clock = self.clock
        samples.append(now)
        oldestSample = min(oldestSample, now)
        if clock.elapsed(from: oldestSample, to: now) > Self.sampleWindow {
            samples.removeAll { clock.elapsed(from: $0, to: now) > Self.sampleWindow }
            oldestSample = samples.min() ?? .max
        }
    }

    /// Whether a publish may start now.
    public func mayPublish() -> Bool {
        guard let last = lastPublishStart else { return true }
        return clock.elapsed(from: last, to: clock.now()) >= target()
    }

    public mutating func didPublish(pendingAfter: Bool) {
        lastPublishStart = clock.now()
        if !pendingAfter {
            linkRunning = false
            samples.removeAll()
            oldestSample = .max
        }
    }

    public mutating func resumeLink() { linkRunning = true }

    /// The reading at which a publish becomes allowed, with the current samples.
    public var nextAllowed: Int64? { lastPublishStart.map { $0 &+ target() } }
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

    public init(clock: Clock, parameters: ClientParameters) { gate = AdaptiveUpdateGate(clock: clock) }

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

    mutating func attemptPublish(trueTime: Int64) {
        guard pending > 0, gate.mayPublish() else { return }
        publishes += 1
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
        ]
    }
}
