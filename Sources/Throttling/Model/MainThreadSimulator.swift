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

    var policy: Policy
    let scenario: ThrottleScenario
    let drainLimit: SimDuration

    var queue = EventQueue<Event>()
    var arrivals: CommitTrace.Iterator
    var arrivalsDone = false
    var now = SimInstant.zero
    var display: DisplayState
    var pipeline: UpdatePipeline
    var timerGeneration: UInt64 = 0

    // Main thread.
    var fifo = Deque<MainThreadWork>()
    var busy = false
    var current: MainThreadWork?
    var currentStart = SimInstant.zero

    public var metrics: ThrottleMetrics { pipeline.metrics }
    public var timeline: [UpdateRecord] { pipeline.timeline }

    public init(policy: Policy, scenario: ThrottleScenario, trace: CommitTrace,
                drainLimit: SimDuration = .seconds(600), recordTimeline: Bool = false) {
        self.policy = policy
        self.scenario = scenario
        self.drainLimit = drainLimit
        self.arrivals = trace.makeIterator()
        self.display = DisplayState(vsyncHz: scenario.vsyncHz)
        self.pipeline = UpdatePipeline(scenario: scenario, recordTimeline: recordTimeline)
    }

    /// Runs the whole scenario and returns the measurements.
    public mutating func run() -> ThrottleMetrics {
        scheduleNextArrival()
        // Vsyncs run after anything else at the same instant, so a frame finishing exactly at a
        // vsync makes that vsync.
        queue.schedule(.vsync, at: display.vsyncTime(0), priority: 1)
        let hardStop = SimInstant.zero + scenario.duration + drainLimit
        while let (time, event) = queue.next() {
            if time > hardStop { break }
            now = time
            pipeline.metrics.events += 1
            switch event {
            case .arrival(let commit):
                pipeline.arrived(commit)
                fifo.append(.notify(commit))
                scheduleNextArrival()
            case .vsync:
                let (tick, frame) = display.vsync(metrics: &pipeline.metrics)
                if tick { fifo.append(.linkTick) }
                if frame { fifo.append(.frame) }
                queue.schedule(.vsync, at: display.nextVsync, priority: 1)
            case .timer(let generation):
                if generation == timerGeneration, !display.timerQueued {
                    display.timerQueued = true
                    display.timerDeadline = nil
                    fifo.append(.timer)
                }
            case .workDone:
                workDone()
            }
            if !busy { startNextWork() }
            if arrivalsDone, pipeline.delivered { break }
        }
        return pipeline.finish(at: now)
    }

    mutating func scheduleNextArrival() {
        if let commit = arrivals.next() {
            queue.schedule(.arrival(commit), at: commit.time)
        } else {
            arrivalsDone = true
        }
    }

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
    mutating func perform(_ work: MainThreadWork) -> SimDuration {
        let device = scenario.device
        switch work {
        case .notify(let commit):
            pipeline.notified(commit, at: now)
            let decision = policy.commitArrived(pipeline.context(now: now, display: display))
            return scale(device.notificationCost) + apply(decision)
        case .linkTick:
            display.tickQueued = false
            guard display.linkRunning else { return .zero }
            let decision = policy.displayLinkTicked(pipeline.context(now: now, display: display))
            return scale(device.tickCost) + apply(decision)
        case .timer:
            display.timerQueued = false
            let decision = policy.timerFired(pipeline.context(now: now, display: display))
            return scale(device.tickCost) + apply(decision)
        case .frame:
            display.frameRunning = true
            pipeline.frameStarted()
            return scale(device.frameCost)
        case .publish(let amount):
            return publish(amount)
        }
    }

    mutating func workDone() {
        busy = false
        guard case .frame = current else { return }
        let (present, queuedAt) = display.frameFinished()
        pipeline.framePresented(at: present, queuedAt: queuedAt, lastPresent: display.lastPresent, interval: display.frameInterval)
        display.lastPresent = present
        policy.framePresented(at: present)
        var decision = policy.frameCompleted(pipeline.context(now: now, display: display), frameCost: now - currentStart)
        // An update asked for here runs right after the frame, ahead of anything queued.
        if let amount = PublishAmount(decision.publish) { fifo.prepend(.publish(amount)) }
        decision.publish = .nothing
        _ = apply(decision)
    }

    /// Carries out a decision; returns the main-thread time an immediate publish costs.
    mutating func apply(_ decision: ThrottleDecision) -> SimDuration {
        let hadTimer = display.timerDeadline != nil
        if display.apply(decision, now: now), let deadline = display.timerDeadline {
            timerGeneration &+= 1
            queue.schedule(.timer(timerGeneration), at: deadline)
        } else if hadTimer, display.timerDeadline == nil {
            timerGeneration &+= 1  // cancelled: the scheduled event is ignored when it comes
        }
        guard let amount = PublishAmount(decision.publish) else { return .zero }
        return publish(amount)
    }

    mutating func publish(_ amount: PublishAmount) -> SimDuration {
        guard let (rows, reset, cost) = pipeline.publish(amount, at: now) else { return .zero }
        pipeline.updateRan(rows: rows, reset: reset, cost: cost, at: now)
        policy.updateApplied(rows: rows, reset: reset, cost: cost)
        return cost
    }

    @inline(__always) func scale(_ cost: SimDuration) -> SimDuration {
        scenario.load.scale(cost, at: now)
    }
}
