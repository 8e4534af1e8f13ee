import DequeModule
import Simulation

/// Changes on their way to the screen, and the measurements of that journey.
///
/// committed (on the writer thread, publishable at once) → published: applied on main at once,
/// or requested as a load → building off main (one load at a time) → landed on main → in the
/// first frame that starts after it → on screen when that frame presents. Shared by the
/// simulated and the live driver (through `MainThreadMachine`) so latency, jank and memory are
/// measured by one definition.
struct UpdatePipeline {
    /// Commits moved together, with their rows and whether any of them alone was a reset.
    struct Stage {
        var commits = Deque<Commit>()
        var rows = 0
        var reset = false

        var isEmpty: Bool { commits.isEmpty }

        mutating func append(_ commit: Commit, reset isReset: Bool) {
            commits.append(commit)
            rows += Int(commit.rows)
            reset = reset || isReset
        }

        /// Moves everything into `other`.
        mutating func move(into other: inout Stage) {
            // Into an empty stage the deques trade storage rather than copy (the same commits).
            if other.commits.isEmpty {
                swap(&other.commits, &commits)
            } else {
                other.commits.append(contentsOf: commits)
            }
            other.rows += rows
            other.reset = other.reset || reset
            clear()
        }

        /// Empties the stage and keeps its storage for the next batch.
        mutating func clear() {
            commits.removeAll(keepingCapacity: true)
            rows = 0
            reset = false
        }
    }

    let scenario: ThrottleScenario
    /// `scenario.device.resetThreshold`, read per commit: kept here so that no commit copies the
    /// device profile.
    let resetThreshold: Int
    let recordTimeline: Bool
    var metrics = ThrottleMetrics()
    /// Committed, not yet published (Signal's `committedChanges`).
    var committed = Deque<Commit>()
    var committedRows = 0
    var committedResets = 0
    /// Published into the pending load request (`CVLoadRequest.Builder`).
    var requested = Stage()
    /// The load in flight, built off the main thread.
    var building = Stage()
    /// The storage of the last batch, emptied, for the next `take`: a new `Deque` per publish
    /// was about 2 allocations per publish (3,097 per 100 s storm run).
    var spareBatch = Stage()
    var awaitingFrame = Deque<Commit>()
    var inFrame = Deque<Commit>()
    var timeline: [UpdateRecord] = []
    var timelineAwaitingFrame: [Int] = []
    var timelineInFrame: [Int] = []

    init(scenario: ThrottleScenario, recordTimeline: Bool) {
        self.scenario = scenario
        self.resetThreshold = scenario.device.resetThreshold
        self.recordTimeline = recordTimeline
    }

    var delivered: Bool { metrics.delivered == metrics.commits }

    /// A transaction committed (writer thread): its rows are publishable from now on.
    mutating func committed(_ commit: Commit, at now: SimInstant) {
        metrics.commits += 1
        metrics.lastArrival = commit.time
        metrics.pendingChanged(from: committedRows, at: now)
        committed.append(commit)
        committedRows += Int(commit.rows)
        if Int(commit.rows) >= resetThreshold { committedResets += 1 }  // DeviceProfile.isReset
        metrics.peakPendingRows = max(metrics.peakPendingRows, committedRows)
    }

    /// Takes committed commits (whole, oldest first, at least one) into a batch: `.all`, or up to
    /// a number of rows. Nil when nothing is committed (Signal returns before publishing).
    mutating func take(_ amount: PublishAmount, at now: SimInstant) -> Stage? {
        guard !committed.isEmpty else { return nil }
        metrics.pendingChanged(from: committedRows, at: now)
        var batch = Stage()
        swap(&batch, &spareBatch)
        if case .all = amount, batch.isEmpty {
            // Everything, into an empty batch: the deques trade storage instead of moving each
            // commit (the same batch: its rows are `committedRows`, it is a reset if any commit
            // was; the emptied storage stays `committed`'s).
            swap(&batch.commits, &committed)
            batch.rows = committedRows
            batch.reset = committedResets > 0
            committedResets = 0
            committedRows = 0
            metrics.publishes += 1
            return batch
        }
        while let next = committed.first {
            if case .upTo(let limit) = amount, batch.rows > 0, batch.rows + Int(next.rows) > limit { break }
            let isReset = Int(next.rows) >= resetThreshold  // DeviceProfile.isReset
            if isReset { committedResets -= 1 }
            batch.append(committed.removeFirst(), reset: isReset)
        }
        committedRows -= batch.rows
        metrics.publishes += 1
        return batch
    }

    /// The batch's update was applied on the main thread: it shows in the next frame that starts.
    mutating func applied(_ batch: inout Stage) {
        // Into an empty queue the deques trade storage instead of moving each commit.
        if awaitingFrame.isEmpty {
            swap(&awaitingFrame, &batch.commits)
        } else {
            awaitingFrame.append(contentsOf: batch.commits)
        }
        batch.clear()
    }

    /// A batch `take` returned, applied or moved on (so empty): its storage serves the next one.
    mutating func recycle(_ batch: consuming Stage) {
        spareBatch = batch
    }

    /// A load starts building off main with everything requested; nil when nothing is requested.
    mutating func startLoad() -> (rows: Int, reset: Bool)? {
        guard !requested.isEmpty else { return nil }
        requested.move(into: &building)
        metrics.loads += 1
        return (building.rows, building.reset)
    }

    /// The load in flight landed on main: its commits show in the next frame that starts.
    mutating func landed() -> (rows: Int, reset: Bool) {
        let result = (building.rows, building.reset)
        if awaitingFrame.isEmpty {
            swap(&awaitingFrame, &building.commits)
        } else {
            awaitingFrame.append(contentsOf: building.commits)
        }
        building.clear()
        return result
    }

    /// Records an update that reached the view, with the main-thread time it actually took.
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
        // Read in place, then emptied once: a `popFirst` per commit was a uniqueness check and an
        // index update each. The same latencies, recorded in the same order.
        if !inFrame.isEmpty {
            for commit in inFrame { metrics.latency.record(nanoseconds: (present - commit.time).nanoseconds) }
            metrics.delivered += inFrame.count
            metrics.lastDelivery = present
            inFrame.removeAll(keepingCapacity: true)
        }
        if recordTimeline {
            let lateness = max(present - (queuedAt + interval), .zero)
            for i in timelineInFrame { timeline[i].frameLateness = lateness }
            timelineInFrame.removeAll(keepingCapacity: true)
        }
    }

    @inline(__always) func context(now: SimInstant, display: DisplayState) -> ThrottleContext {
        ThrottleContext(
            now: now,
            pendingRows: committedRows,
            pendingCommits: committed.count,
            oldestPending: committed.first?.time,
            oldestPendingRows: Int(committed.first?.rows ?? 0),
            vsyncInterval: display.frameInterval,
            nextVsync: display.nextVsync,
            frameQueued: display.frameQueued,
            resetThreshold: resetThreshold,
            pendingResets: committedResets
        )
    }

    mutating func finish(at end: SimInstant) -> ThrottleMetrics {
        metrics.pendingChanged(from: committedRows, at: end)
        metrics.end = end
        return metrics
    }
}
