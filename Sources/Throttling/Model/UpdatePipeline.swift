import DequeModule
import Simulation

/// Changes on their way to the screen, and the measurements of that journey.
///
/// pending (held by the observer) → published into an update → in the first frame that starts
/// after the update → on screen when that frame presents. Shared by the simulator and the live
/// main loop so that latency, jank and memory are measured by one definition.
struct UpdatePipeline {
    let scenario: ThrottleScenario
    let recordTimeline: Bool
    var metrics = ThrottleMetrics()
    var pending = Deque<Commit>()
    var pendingRows = 0
    var awaitingFrame = Deque<Commit>()
    var inFrame = Deque<Commit>()
    var timeline: [UpdateRecord] = []
    var timelineAwaitingFrame: [Int] = []
    var timelineInFrame: [Int] = []

    init(scenario: ThrottleScenario, recordTimeline: Bool) {
        self.scenario = scenario
        self.recordTimeline = recordTimeline
    }

    var delivered: Bool { metrics.delivered == metrics.commits }

    mutating func arrived(_ commit: Commit) {
        metrics.commits += 1
        metrics.lastArrival = commit.time
    }

    /// The notification ran on the main thread: the commit's rows join the pending set.
    mutating func notified(_ commit: Commit, at now: SimInstant) {
        metrics.pendingChanged(from: pendingRows, at: now)
        pending.append(commit)
        pendingRows += Int(commit.rows)
        metrics.peakPendingRows = max(metrics.peakPendingRows, pendingRows)
    }

    /// Moves pending commits into an update (whole commits, oldest first, at least one) and
    /// returns its rows, whether it is a reset, and its modelled cost at `now`.
    mutating func publish(_ amount: PublishAmount, at now: SimInstant) -> (rows: Int, reset: Bool, cost: SimDuration)? {
        guard !pending.isEmpty else { return nil }
        metrics.pendingChanged(from: pendingRows, at: now)
        var rows = 0
        switch amount {
        case .all:
            rows = pendingRows
            awaitingFrame.append(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        case .upTo(let limit):
            while let next = pending.first, rows == 0 || rows + Int(next.rows) <= limit {
                rows += Int(next.rows)
                awaitingFrame.append(pending.removeFirst())
            }
        }
        pendingRows -= rows
        let (base, reset) = scenario.device.updateCost(rows: rows)
        return (rows, reset, scenario.load.scale(base, at: now))
    }

    /// Records an update that ran, with the main-thread time it actually took.
    mutating func updateRan(rows: Int, reset: Bool, cost: SimDuration, at start: SimInstant) {
        metrics.updates += 1
        metrics.updateRows += rows
        metrics.maxUpdateRows = max(metrics.maxUpdateRows, rows)
        if reset { metrics.resets += 1 }
        metrics.updateCPU = metrics.updateCPU + cost
        if recordTimeline {
            timelineAwaitingFrame.append(timeline.count)
            timeline.append(UpdateRecord(time: start, rows: rows, reset: reset, cost: cost, frameLateness: nil))
        }
    }

    /// A frame starts rendering: it shows every update applied before now.
    mutating func frameStarted() {
        swap(&inFrame, &awaitingFrame)
        if recordTimeline { swap(&timelineInFrame, &timelineAwaitingFrame) }
    }

    /// The frame reached the screen at `present`; `queuedAt` is the vsync it was queued at.
    mutating func framePresented(at present: SimInstant, queuedAt: SimInstant, lastPresent: SimInstant?, interval: SimDuration) {
        if let lastPresent { metrics.presented(interval: present - lastPresent, frameInterval: interval) }
        while let commit = inFrame.popFirst() {
            metrics.latency.record(nanoseconds: (present - commit.time).nanoseconds)
            metrics.delivered += 1
            metrics.lastDelivery = present
        }
        if recordTimeline {
            let lateness = max(present - (queuedAt + interval), .zero)
            for i in timelineInFrame { timeline[i].frameLateness = lateness }
            timelineInFrame.removeAll(keepingCapacity: true)
        }
    }

    func context(now: SimInstant, display: DisplayState) -> ThrottleContext {
        ThrottleContext(
            now: now, pendingRows: pendingRows, pendingCommits: pending.count,
            oldestPending: pending.first?.time, oldestPendingRows: Int(pending.first?.rows ?? 0),
            vsyncInterval: display.frameInterval, nextVsync: display.nextVsync, frameQueued: display.frameQueued,
            resetThreshold: scenario.device.resetThreshold
        )
    }

    mutating func finish(at end: SimInstant) -> ThrottleMetrics {
        metrics.pendingChanged(from: pendingRows, at: end)
        metrics.end = end
        return metrics
    }
}
