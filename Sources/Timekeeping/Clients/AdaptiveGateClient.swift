import Records
import Simulation

/// Commits arrive; the gate decides when the UI may update. Scored by how long commits waited.
///
/// Signal re-checks the gate in only two places: a commit's main-thread block and
/// `displayLinkDidFire`. So this client tries to publish only at a commit or at a display-link
/// tick, and records samples only at ticks. The link ticks on the 20-fps grid of true time (vsync
/// is the display's, not the clock the client reads): the workload's ticks over each awake window,
/// and, while anything is pending, the client keeps ticking on the same grid after them
/// (`wakeAtTrueTime`), so a commit left at the end of a window is published at a later tick, not
/// at the instant its gate opens. A tick due while the machine sleeps comes at the resume.
public struct AdaptiveGateClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable { case commit, tick }
    public static var kind: ClientKind { .adaptiveGate }

    var gate: AdaptiveUpdateGate<Clock>
    var pending = 0
    var pendingSince: Int64?
    var publishes = 0
    /// Each stretch a commit waited, first commit to publish, in true time: scored in awake time.
    var waits: [Range<Int64>] = []
    /// True time of the previous publish, and publishes that came sooner than the fastest target
    /// after it (only a clock that jumped can allow that).
    var lastPublishTrue: Int64?
    var earlyPublishes = 0
    /// (true time, commits published, the gate's target interval in seconds, early) per publish,
    /// when recording a trace.
    var published: [(time: Int64, commits: Int, target: Double, early: Bool)]?
    let tolerance: Int64
    /// The display link's period, and the vsync instant of its last tick (true time): the grid the
    /// link keeps ticking on.
    let period: Int64
    var lastTick: Int64?
    /// The true time of the workload's last own tick: the continuation stops `continuationLimit`
    /// after it.
    var lastWorkloadTick: Int64?
    /// The latest true time the client was handed: the next tick is the first grid instant after it.
    var lastSeen: Int64 = .min

    public init(clock: Clock, parameters: ClientParameters) {
        gate = AdaptiveUpdateGate(clock: clock)
        tolerance = nanoseconds(parameters.toleranceSeconds)
        period = Self.period(parameters)
    }

    static func period(_ parameters: ClientParameters) -> Int64 { nanoseconds(1 / parameters.displayLinkFPS) }

    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        var rng = plan.generator(for: kind)
        var events = plan.poisson(rate: plan.parameters.commitsPerSecond, &rng).map { Timed<Event>($0, .commit) }
        let period = Self.period(plan.parameters)
        events += plan.periodic(every: period, offset: period).map { Timed($0, .tick) }
        return sortedWorkload(events)
    }

    /// Signal's `publishUpdatesIfNecessary`: the gate first (which filters the samples), then an
    /// empty change set returns before anything is recorded.
    mutating func attemptPublish(trueTime: Int64) {
        guard gate.mayPublish(), pending > 0 else { return }
        publishes += 1
        var early = false
        if let previous = lastPublishTrue, trueTime - previous < nanoseconds(SignalPublishInterval.fastInterval) - tolerance {
            earlyPublishes += 1
            early = true
        }
        if published != nil { published!.append((trueTime, pending, gate.target(), early)) }
        lastPublishTrue = trueTime
        if let since = pendingSince { waits.append(since..<trueTime) }
        pending = 0
        pendingSince = nil
        gate.didPublish(pendingAfter: false)
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        switch event {
        case .commit:
            lastSeen = max(lastSeen, trueTime)
            if pending == 0 { pendingSince = trueTime }
            pending += 1
            if !gate.linkRunning { gate.resumeLink() }
            attemptPublish(trueTime: trueTime)
        case .tick:
            // The link already ticked for this vsync: a continuation tick at the same instant (or,
            // live, the same vsync polled a little later; after a resume off the grid, the old grid's).
            lastWorkloadTick = trueTime
            if let lastTick, trueTime - lastTick < period / 2 { return }
            linkTick(vsync: trueTime, trueTime: trueTime)
        }
    }

    /// Signal's `displayLinkDidFire`: record a sample, then try to publish.
    mutating func linkTick(vsync: Int64, trueTime: Int64) {
        lastSeen = max(lastSeen, trueTime)
        lastTick = vsync
        gate.tick()
        attemptPublish(trueTime: trueTime)
    }

    /// The gate's clock never wakes the client: only commits and ticks re-check it.
    public var wakeDeadline: Int64? { nil }

    /// How long after the workload's last own tick the link keeps ticking for a pending commit.
    /// With a slowest interval of 1 s only a clock that has all but stopped (a skew file's
    /// −1 000 000 ppm slew) keeps the gate shut that long; Signal's link would tick on for as long
    /// as it stays shut, which the simulation cuts here instead of ticking to its horizon a week
    /// later (the commit then waits for the next window's ticks, or counts as never published).
    static var continuationLimit: Int64 { 60_000_000_000 }

    /// While something is pending, the link's next vsync on its grid: the first after everything
    /// the client has seen.
    public var wakeAtTrueTime: Int64? {
        guard pending > 0, let lastTick else { return nil }
        let next =
            lastSeen < lastTick ? lastTick &+ period : lastTick &+ ((lastSeen - lastTick) / period + 1) &* period
        if let lastWorkloadTick, next - lastWorkloadTick > Self.continuationLimit { return nil }
        return next
    }

    /// A continuation tick. Live mode polls, so it may run a little after its vsync; the grid stays
    /// on the vsync.
    public mutating func wake(trueTime: Int64) {
        guard let vsync = wakeAtTrueTime else { return }
        linkTick(vsync: min(vsync, trueTime), trueTime: trueTime)
    }

    public func observations(_ context: ScoringContext) -> [Observation] {
        var gap: Int64 = 0
        for w in waits { gap = max(gap, context.awakeTime(from: w.lowerBound, to: w.upperBound)) }
        if let since = pendingSince { gap = max(gap, context.awakeTime(from: since, to: context.horizon)) }
        return [
            Observation("publishes", Double(publishes), "count"),
            Observation("max_publish_gap_ms", Double(gap) / 1e6, "ms"),
            Observation("unpublished_at_end", pending > 0 ? 1 : 0, "count"),
            Observation("publishes_early", Double(earlyPublishes), "count"),
        ]
    }
}
