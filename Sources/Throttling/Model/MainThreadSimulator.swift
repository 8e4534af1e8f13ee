import DequeModule
import Simulation

/// The virtual-time model: one main thread with a FIFO queue, a vsync-driven display, a database
/// producing commits, and a throttle policy in between.
///
/// - Commits arrive open-loop from the trace; each one's notification is queued on the main
///   thread, where its rows join the pending set and the policy is asked what to do.
/// - Every vsync queues a frame. A frame still unfinished at a vsync makes that vsync a missed
///   one (and no second frame is queued); a finished frame reaches the screen at the first vsync
///   at or after it finishes.
/// - A commit is on screen when the first frame that started after its update presents; its
///   latency runs from the commit's own time, so delays anywhere (queueing, throttling, a busy
///   main thread) count.
/// - The policy's display link ticks on the main thread every `vsyncHz / 20`-th vsync while it
///   runs; a tick that cannot run before the next one is due is dropped, like CADisplayLink's.
/// - After the last commit the run continues until everything is on screen, or until
///   `drainLimit`, after which what is left is reported as undelivered.
public struct MainThreadSimulator<Policy: UpdateThrottler> {
    enum Event: Sendable {
        case arrival(Commit)
        case vsync
        case timer(UInt64)
        case workDone
    }

    enum Work: Sendable {
        case notify(Commit)
        case frame
        case linkTick
        case timer
        case publish(Publish)
    }

    enum Publish: Sendable {
        case all, upTo(Int)
    }

    var policy: Policy
    let scenario: ThrottleScenario
    let drainLimit: SimDuration
    let recordTimeline: Bool

    var queue = EventQueue<Event>()
    var arrivals: CommitTrace.Iterator
    var arrivalsDone = false
    var now = SimInstant.zero

    // Display.
    let hz: Int64
    var nextVsyncIndex: Int64 = 0
    let linkDivisor: Int64
    var frameOutstanding = false
    var frameRunning = false
    var frameQueuedAt: Int64 = 0
    var lastPresent: SimInstant?

    // Main thread.
    var fifo = Deque<Work>()
    var busy = false
    var current: Work?
    var currentStart = SimInstant.zero

    // Policy plumbing.
    var linkRunning = false
    var tickQueued = false
    var timerGeneration: UInt64 = 0
    var timerQueued = false

    // Changes on their way to the screen.
    var pending = Deque<Commit>()
    var pendingRows = 0
    var awaitingFrame = Deque<Commit>()
    var inFrame = Deque<Commit>()
    var timelineAwaitingFrame: [Int] = []
    var timelineInFrame: [Int] = []

    public private(set) var metrics = ThrottleMetrics()
    public private(set) var timeline: [UpdateRecord] = []

    public init(policy: Policy, scenario: ThrottleScenario, trace: CommitTrace,
                drainLimit: SimDuration = .seconds(600), recordTimeline: Bool = false) {
        self.policy = policy
        self.scenario = scenario
        self.drainLimit = drainLimit
        self.recordTimeline = recordTimeline
        self.arrivals = trace.makeIterator()
        self.hz = Int64(scenario.vsyncHz)
        self.linkDivisor = max(1, Int64(scenario.vsyncHz) / 20)
    }

    /// The time of vsync number `k`: exact integer arithmetic, so 60 Hz does not drift.
    @inline(__always) func vsyncTime(_ k: Int64) -> SimInstant {
        SimInstant(nanoseconds: k * 1_000_000_000 / hz)
    }

    var frameInterval: SimDuration { vsyncTime(1) - vsyncTime(0) }

    /// Runs the whole scenario and returns the measurements.
    public mutating func run() -> ThrottleMetrics {
        scheduleNextArrival()
        queue.schedule(.vsync, at: vsyncTime(0), priority: 1)
        let hardStop = SimInstant.zero + scenario.duration + drainLimit
        while let (time, event) = queue.next() {
            if time > hardStop { break }
            now = time
            metrics.events += 1
            switch event {
            case .arrival(let commit): arrived(commit)
            case .vsync: vsync()
            case .timer(let generation): timerExpired(generation)
            case .workDone: workDone()
            }
            if !busy { startNextWork() }
            if arrivalsDone, metrics.delivered == metrics.commits { break }
        }
        metrics.pendingChanged(from: pendingRows, at: now)
        metrics.end = now
        return metrics
    }

    // MARK: Events

    mutating func scheduleNextArrival() {
        if let commit = arrivals.next() {
            queue.schedule(.arrival(commit), at: commit.time)
        } else {
            arrivalsDone = true
        }
    }

    mutating func arrived(_ commit: Commit) {
        metrics.commits += 1
        metrics.lastArrival = commit.time
        fifo.append(.notify(commit))
        scheduleNextArrival()
    }

    mutating func vsync() {
        let k = nextVsyncIndex
        nextVsyncIndex += 1
        metrics.vsyncs += 1
        if linkRunning, k % linkDivisor == 0, !tickQueued {
            tickQueued = true
            fifo.append(.linkTick)
        }
        if frameOutstanding {
            metrics.missedVsyncs += 1
        } else {
            frameOutstanding = true
            frameQueuedAt = k
            fifo.append(.frame)
        }
        queue.schedule(.vsync, at: vsyncTime(nextVsyncIndex), priority: 1)
    }

    mutating func timerExpired(_ generation: UInt64) {
        guard generation == timerGeneration, !timerQueued else { return }
        timerQueued = true
        fifo.append(.timer)
    }

    // MARK: Main thread

    mutating func startNextWork() {
        while !busy, let work = fifo.popFirst() {
            let cost = perform(work)
            guard cost > .zero else { continue }
            busy = true
            current = work
            currentStart = now
            queue.schedule(.workDone, at: now + cost)
        }
    }

    /// Runs `work`'s logic at its start time and returns how long it occupies the main thread.
    mutating func perform(_ work: Work) -> SimDuration {
        let device = scenario.device
        switch work {
        case .notify(let commit):
            metrics.pendingChanged(from: pendingRows, at: now)
            pending.append(commit)
            pendingRows += Int(commit.rows)
            metrics.peakPendingRows = max(metrics.peakPendingRows, pendingRows)
            let decision = policy.commitArrived(context())
            return scale(device.notificationCost) + apply(decision)
        case .linkTick:
            tickQueued = false
            guard linkRunning else { return .zero }
            let decision = policy.displayLinkTicked(context())
            return scale(device.tickCost) + apply(decision)
        case .timer:
            timerQueued = false
            let decision = policy.timerFired(context())
            return scale(device.tickCost) + apply(decision)
        case .frame:
            frameRunning = true
            swap(&inFrame, &awaitingFrame)
            if recordTimeline { swap(&timelineInFrame, &timelineAwaitingFrame) }
            return scale(device.frameCost)
        case .publish(let amount):
            return publish(amount)
        }
    }

    mutating func workDone() {
        busy = false
        guard case .frame = current else { return }
        frameFinished(cost: now - currentStart)
    }

    mutating func frameFinished(cost: SimDuration) {
        frameRunning = false
        frameOutstanding = false
        // On screen at the first vsync at or after now. Vsyncs run after work finishing at the
        // same instant (priority), so a frame done exactly at a vsync makes that vsync.
        let present = vsyncTime(nextVsyncIndex)
        let interval = frameInterval
        if let lastPresent { metrics.presented(interval: present - lastPresent, frameInterval: interval) }
        lastPresent = present
        while let commit = inFrame.popFirst() {
            metrics.latency.record(nanoseconds: (present - commit.time).nanoseconds)
            metrics.delivered += 1
            metrics.lastDelivery = present
        }
        if recordTimeline {
            let lateness = max(present - (vsyncTime(frameQueuedAt) + interval), .zero)
            for i in timelineInFrame { timeline[i].frameLateness = lateness }
            timelineInFrame.removeAll(keepingCapacity: true)
        }
        policy.framePresented(at: present)
        let decision = policy.frameCompleted(context(), frameCost: cost)
        // An update asked for here runs right after the frame, ahead of anything queued.
        switch decision.publish {
        case .nothing: break
        case .all: fifo.prepend(.publish(.all))
        case .upTo(let rows): fifo.prepend(.publish(.upTo(rows)))
        }
        var rest = decision
        rest.publish = .nothing
        _ = apply(rest)
    }

    // MARK: Policy plumbing

    func context() -> ThrottleContext {
        let interval = frameInterval
        let nextVsync = vsyncTime(nextVsyncIndex)
        return ThrottleContext(
            now: now, pendingRows: pendingRows, pendingCommits: pending.count,
            oldestPending: pending.first?.time, oldestPendingRows: Int(pending.first?.rows ?? 0),
            vsyncInterval: interval, nextVsync: nextVsync, frameQueued: frameOutstanding && !frameRunning,
            resetThreshold: scenario.device.resetThreshold
        )
    }

    /// Carries out a decision; returns the main-thread time an immediate publish costs.
    mutating func apply(_ decision: ThrottleDecision) -> SimDuration {
        switch decision.timer {
        case .unchanged: break
        case .cancel:
            timerGeneration &+= 1
        case .fire(let at):
            timerGeneration &+= 1
            queue.schedule(.timer(timerGeneration), at: max(at, now))
        }
        switch decision.displayLink {
        case .unchanged: break
        case .run: linkRunning = true
        case .pause: linkRunning = false
        }
        switch decision.publish {
        case .nothing: return .zero
        case .all: return publish(.all)
        case .upTo(let rows): return publish(.upTo(rows))
        }
    }

    /// Moves pending commits into an update (whole commits, oldest first, at least one) and
    /// returns its main-thread cost.
    mutating func publish(_ amount: Publish) -> SimDuration {
        guard !pending.isEmpty else { return .zero }
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
        let cost = scale(base)
        metrics.updates += 1
        metrics.updateRows += rows
        metrics.maxUpdateRows = max(metrics.maxUpdateRows, rows)
        if reset { metrics.resets += 1 }
        metrics.updateCPU = metrics.updateCPU + cost
        if recordTimeline {
            timelineAwaitingFrame.append(timeline.count)
            timeline.append(UpdateRecord(time: now, rows: rows, reset: reset, cost: cost, frameLateness: nil))
        }
        policy.updateApplied(rows: rows, reset: reset, cost: cost)
        return cost
    }

    @inline(__always) func scale(_ cost: SimDuration) -> SimDuration {
        scenario.load.scale(cost, at: now)
    }
}
