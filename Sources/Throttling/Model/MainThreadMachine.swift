import DequeModule
import Measurement
import Simulation
import Timelines

/// The main thread of the modelled app, as one state machine that both drivers step: the
/// virtual-time `MainThreadSimulator` and the real-time `LiveMainLoop`. Everything a policy sees
/// and everything measured comes from here, so a live and a simulated number come from the same
/// code; the drivers only decide *when* things happen (an event queue, or a real clock).
///
/// Inputs from outside the main thread: `commit` (the writer thread commits a transaction: its
/// rows are publishable at once, and its main-thread block is queued), `vsync`, `tickDelivered`
/// (the display link's callback, `tickReady`), `timerDue` (the policy's timer), `loadBuilt` (a
/// load finished off the main thread). The main thread runs
/// `begin` / `end` for each queued item; `begin` returns the modelled main-thread cost, which the
/// driver lets pass (virtual time) or burns (live) before calling `end`.
struct MainThreadMachine<Policy: UpdateThrottler> {
    var policy: Policy
    let scenario: ThrottleScenario
    let pipelineKind: ThrottlePipeline
    var display: DisplayState
    var pipeline: UpdatePipeline
    var fifo = Deque<MainThreadWork>()
    /// Bumped whenever the policy's timer is armed, re-armed or cancelled: a driver drops a wake-up
    /// it scheduled for an older generation.
    var timerGeneration: UInt64 = 0

    // The load stage (CVLoadCoordinator): the debounced loadIfNecessary, one load in flight.
    var loadDebouncer = LastOnlyDebouncer(interval: LastOnlyDebouncer.theta)
    var isBuildingLoad = false
    /// When the load in flight will have been built off the main thread; nil when none is.
    var loadReady: SimInstant?
    /// When the display link's pending callback is delivered to the main queue; nil when none is.
    var tickReady: SimInstant?

    // The item the main thread is running.
    var current: MainThreadWork?
    var currentStart = SimInstant.zero
    var currentModelled = SimDuration.zero
    /// The view update inside the current item (applied on main, or a landing) and its cost.
    var currentUpdate: (rows: Int, reset: Bool, cost: SimDuration)?
    /// The publish inside the current item: its rows and its own main-thread cost (the update
    /// applied on main, or the delegate merging it into the load request). The policy hears it
    /// in `updateApplied` and `publishFinished` when the item ends.
    var currentPublish: (rows: Int, reset: Bool, cost: SimDuration)?
    /// What happened, for `--perfetto` and `--events`; nil unless the run records its timeline.
    var trace: [TraceEvent]?
    /// The policy's contract (`ThrottleContract`), checked on each decision and at the end.
    var contract = ContractCheck()

    init(policy: Policy, scenario: ThrottleScenario, pipeline kind: ThrottlePipeline, recordTimeline: Bool) {
        self.policy = policy
        self.scenario = scenario
        self.pipelineKind = kind
        self.display = DisplayState(vsyncHz: scenario.vsyncHz)
        self.pipeline = UpdatePipeline(scenario: scenario, recordTimeline: recordTimeline)
        if recordTimeline { trace = [] }
    }

    // MARK: Inputs

    /// The writer thread commits `commit` at `now`: publishable from now on; its main block queues.
    mutating func commit(_ commit: Commit, at now: SimInstant) {
        fifo.append(.notify(commit))
        committed(commit, at: now)
    }

    /// `commit` without queueing its block: for a driver that runs the block at once because the
    /// main thread is idle and its queue empty (then the queue would hand it straight back).
    mutating func committed(_ commit: Commit, at now: SimInstant) {
        pipeline.committed(commit, at: now)
        if trace != nil {
            trace!.append(.instant("commit", on: "writer", at: now.nanoseconds, value: Double(commit.rows)))
            recordPending(now)
        }
    }

    mutating func recordPending(_ now: SimInstant) {
        trace?.append(.counter("pending rows", unit: "rows", at: now.nanoseconds, value: Double(pipeline.committedRows)))
    }

    /// A vsync: queues the frame (unless one is unfinished) and, if the link ticks, schedules its
    /// callback's delivery (`tickReady`).
    mutating func vsync() {
        let k = display.nextVsyncIndex
        let missedBefore = pipeline.metrics.missedVsyncs
        let (tick, frame) = display.vsync(metrics: &pipeline.metrics)
        if trace != nil, pipeline.metrics.missedVsyncs != missedBefore {
            trace!.append(.instant("missed vsync", on: "display", at: display.vsyncTime(k).nanoseconds))
        }
        if frame { fifo.append(.frame) }
        if tick { tickReady = display.vsyncTime(k) + DisplayState.tickLatency(vsync: k) }
    }

    /// The display link's callback is delivered: it queues on main.
    mutating func tickDelivered() {
        tickReady = nil
        fifo.append(.linkTick)
    }

    /// The policy's timer is due: its block queues on main.
    mutating func timerDue() {
        display.timerQueued = true
        display.timerDeadline = nil
        fifo.append(.timer)
    }

    /// The load in flight has been built off main: its landing queues on main.
    mutating func loadBuilt() {
        loadReady = nil
        fifo.append(.land)
    }

    /// When the policy's timer wants to fire, unless its block is already queued.
    var timerWake: SimInstant? { display.timerQueued ? nil : display.timerDeadline }

    // MARK: The main thread

    /// Starts `work` at `now`: runs its logic and returns how long it occupies the main thread.
    mutating func begin(_ work: MainThreadWork, at now: SimInstant) -> SimDuration {
        current = work
        currentStart = now
        currentUpdate = nil
        currentPublish = nil
        // `scenario.device.x`, not a local copy of the profile: copying it (a String inside) was a
        // memmove and a retain/release per item.
        let cost: SimDuration
        switch work {
        case .notify:
            let decision = policy.commitArrived(context(now))
            check(decision, now, from: "commitArrived")
            cost = scale(scenario.device.notificationCost, now) + apply(decision, now)
        case .linkTick:
            display.tickQueued = false
            if display.linkRunning {
                let decision = policy.displayLinkTicked(context(now))
                check(decision, now, from: "displayLinkTicked")
                cost = scale(scenario.device.tickCost, now) + apply(decision, now)
            } else {
                cost = .zero
            }
        case .timer:
            display.timerQueued = false
            let decision = policy.timerFired(context(now))
            check(decision, now, from: "timerFired")
            cost = scale(scenario.device.tickCost, now) + apply(decision, now)
        case .frame:
            display.frameRunning = true
            pipeline.frameStarted()
            cost = scale(
                scenario.device.frameCost + DisplayState.frameJitter(vsync: display.frameQueuedAt, max: scenario.device.frameJitter),
                now
            )
        case .publish(let amount):
            cost = publish(amount, now)
        case .loadIfNecessary:
            loadDebouncer.fire()
            cost = scale(scenario.device.tickCost, now)
            if !isBuildingLoad, let (rows, reset) = pipeline.startLoad() {
                isBuildingLoad = true
                let build = scale(scenario.device.updateCost(rows: rows, reset: reset), now)
                pipeline.metrics.offMainCPU = pipeline.metrics.offMainCPU + build
                loadReady = now + cost + build
                trace?.append(
                    .slice(
                        reset ? "load (reset)" : "load",
                        on: "load builder",
                        start: (now + cost).nanoseconds,
                        duration: build.nanoseconds,
                        value: Double(rows)
                    )
                )
            }
        case .land:
            let (rows, reset) = pipeline.landed()
            cost = scale(scenario.device.landCost(rows: rows, reset: reset), now)
            currentUpdate = (rows, reset, cost)
        }
        currentModelled = cost
        return cost
    }

    /// The current item finished at `now` (after its cost, stretched by anything real).
    mutating func end(at now: SimInstant) {
        guard let work = current else { return }
        current = nil
        if trace != nil { recordSlice(work, now) }
        // A live overrun (preemption, a slower CPU) is charged to the update or publish inside.
        let overrun = (now - currentStart) - currentModelled
        if let update = currentUpdate {
            let actual = max(update.cost + overrun, .zero)
            pipeline.updateRan(rows: update.rows, reset: update.reset, cost: actual, at: currentStart)
            if case .land = work {
                // CVLoadCoordinator's `ensure`: the next load starts if more was requested.
                isBuildingLoad = false
                requestLoad(now)
            }
        }
        if case .frame = work {
            let (present, queuedAt) = display.frameFinished()
            pipeline.framePresented(at: present, queuedAt: queuedAt, lastPresent: display.lastPresent, interval: display.frameInterval)
            display.lastPresent = present
            policy.framePresented(at: present)
            var decision = policy.frameCompleted(context(now), frameCost: now - currentStart)
            check(decision, now, from: "frameCompleted")
            // An update asked for here runs right after the frame, ahead of anything queued.
            if let amount = PublishAmount(decision.publish) { fifo.prepend(.publish(amount)) }
            decision.publish = .nothing
            _ = apply(decision, now)
        }
        if let published = currentPublish {
            policy.updateApplied(rows: published.rows, reset: published.reset, cost: max(published.cost + overrun, .zero))
            var decision = policy.publishFinished(context(now))
            check(decision, now, from: "publishFinished")
            decision.publish = .nothing
            _ = apply(decision, now)
        }
    }

    /// The main thread's slice for the item that just ended, named for what it was and for the
    /// publish or update inside it.
    mutating func recordSlice(_ work: MainThreadWork, _ now: SimInstant) {
        let base: Int
        switch work {
        case .notify: base = 0
        case .frame: base = 1
        case .linkTick: base = 2
        case .timer: base = 3
        case .publish: base = 4
        case .loadIfNecessary: base = 5
        case .land: base = 6
        }
        var form = 0
        var rows: Double?
        if let p = currentPublish {
            if case .publish = work {} else { form += 2 }
            if p.reset { form += 1 }
            rows = Double(p.rows)
        } else if let u = currentUpdate {
            rows = Double(u.rows)
        }
        let name = MainThreadSliceNames.all[base * 4 + form]
        trace!.append(.slice(name, on: "main", start: currentStart.nanoseconds, duration: (now - currentStart).nanoseconds, value: rows))
        if currentPublish != nil || currentUpdate != nil { recordPending(now) }
    }

    // MARK: Decisions

    /// Inlined: called out of line from a `mutating` method, it copied the whole pipeline (712
    /// bytes, with the metrics) for every policy call.
    @inline(__always) func context(_ now: SimInstant) -> ThrottleContext { pipeline.context(now: now, display: display) }

    /// Carries out a decision (checked by the caller, `check`); returns the main-thread time an
    /// immediate publish costs.
    mutating func apply(_ decision: ThrottleDecision, _ now: SimInstant) -> SimDuration {
        let hadTimer = display.timerDeadline != nil
        if display.apply(decision, now: now) || (hadTimer && display.timerDeadline == nil) {
            timerGeneration &+= 1
        }
        guard let amount = PublishAmount(decision.publish) else { return .zero }
        return publish(amount, now)
    }

    /// Checks a decision `callback` returned against `ThrottleContract`, before anything of it is
    /// carried out: two pattern matches per decision on the hot path; the failure line is built
    /// out of line, only for a decision that breaks a rule.
    @inline(__always) mutating func check(_ decision: ThrottleDecision, _ now: SimInstant, from callback: StaticString) {
        if case .upTo(let rows) = decision.publish, rows <= 0 {
            broke(decision, now, from: callback)
        } else if case .fire(let at) = decision.timer, at < now {
            broke(decision, now, from: callback)
        }
    }

    @inline(never) mutating func broke(_ decision: ThrottleDecision, _ now: SimInstant, from callback: StaticString) {
        if case .upTo(let rows) = decision.publish, rows <= 0 {
            contract.record(ThrottleContract.asksForRows.violated(at: "\(callback) returned .upTo(rows: \(rows)) at \(now)"))
        }
        if case .fire(let at) = decision.timer, at < now {
            contract.record(
                ThrottleContract.timerNotInThePast.violated(at: "\(callback) returned .fire(at: \(at)) at \(now), \(now - at) in the past")
            )
        }
    }

    /// Takes a batch of committed changes and hands it to the app: applied on main at once
    /// (observer pipeline, incremental), or merged into the load request (resets; every publish
    /// in the conversation pipeline). Returns the main-thread cost.
    mutating func publish(_ amount: PublishAmount, _ now: SimInstant) -> SimDuration {
        guard var batch = pipeline.take(amount, at: now) else { return .zero }
        if pipelineKind == .observer, !batch.reset {
            let cost = scale(scenario.device.updateCost(rows: batch.rows), now)
            currentUpdate = (batch.rows, false, cost)
            currentPublish = (batch.rows, false, cost)
            pipeline.applied(&batch)
            pipeline.recycle(consume batch)
            return cost
        }
        // The delegate's enqueueReload: merge the ids into the pending request, then loadIfNecessary.
        let cost = scale(scenario.device.tickCost, now)
        currentPublish = (batch.rows, batch.reset, cost)
        batch.move(into: &pipeline.requested)
        pipeline.recycle(consume batch)
        requestLoad(now)
        return cost
    }

    /// `loadIfNecessaryEvent.requestNotify()`: lastOnly with Signal's 1 ms theta, a plain async.
    mutating func requestLoad(_ now: SimInstant) {
        if loadDebouncer.request(at: now) != .ignored { fifo.append(.loadIfNecessary) }
    }

    @inline(__always) func scale(_ cost: SimDuration, _ now: SimInstant) -> SimDuration {
        scenario.load.scale(cost, at: now)
    }

    // MARK: Results

    var delivered: Bool { pipeline.delivered }

    /// The run's result at `end`: metrics, the policy's own observations, the timeline.
    mutating func finish(at end: SimInstant) -> ThrottleRunResult {
        if pipeline.committedRows > 0 {
            contract.record(
                ThrottleContract.publishesEveryRow.violated(
                    at: "the end of the run at \(end): \(pipeline.committedRows) committed rows never published"
                )
            )
        }
        let metrics = pipeline.finish(at: end)
        return ThrottleRunResult(
            violation: contract.first,
            metrics: metrics,
            timeline: pipeline.timeline,
            trace: trace ?? [],
            observations: metrics.observations(bytesPerRow: scenario.bytesPerPendingRow) + policy.observations()
        )
    }
}

/// The main thread's slice names (`MainThreadMachine.recordSlice`), made once: for each kind of
/// work (in `recordSlice`'s order), the name alone, `(reset)`, `→ publish` (an update inside other
/// work) and both.
enum MainThreadSliceNames {
    static let all: [TraceName] = [
        "commit notification", "frame", "display-link tick", "timer", "publish after frame", "loadIfNecessary", "load landed",
    ].flatMap { (base: String) in
        [base, base + " (reset)", base + " → publish", base + " → publish (reset)"].map(TraceName.init)
    }
}
