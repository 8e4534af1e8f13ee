import Simulation

/// The shared state of one launch: the plan, the executor it runs on, what it measures, and the
/// globals. Policies run blocks through it so that every design pays the same costs.
///
/// A user's `ReadinessPolicy` receives it at creation and uses its public part: `executor` (to
/// enqueue turns), `run`, `runOffMain`, `markAppReady` and `isNoOp`.
public final class LaunchSession: @unchecked Sendable {
    // Confined to the main executor, like the recorder (see LaunchRecorder).
    package let plan: LaunchPlan
    /// The one serial main executor: `async`/`asyncAfter` enqueue turns, `now` is the time.
    public let executor: any MainExecutor
    package let recorder = LaunchRecorder()
    package let globals: GlobalsStrategy
    private var built: [Bool]
    /// How an off-main block occupies its own thread (sim: nothing on main; live: burns CPU).
    package let offMainWork: @Sendable (SimDuration) -> Void
    /// The run's frame-aware tuning (`--input-bound-ms`, `--long-quiet-ms`), for `frame-aware`.
    package let frameAware: FrameAwareScheduler.Parameters
    /// Whether the caller is on the main executor: what `run` checks so that a block a policy runs
    /// from a background thread is seen there (`ReadinessContract.runsOnItsThread`). Set by the
    /// driver: the sim executor knows when it runs an off-main registration, the live one its thread.
    package var isOnMainExecutor: @Sendable () -> Bool = { true }

    package init(
        plan: LaunchPlan,
        executor: any MainExecutor,
        globals: GlobalsStrategy,
        frameAware: FrameAwareScheduler.Parameters = .init(),
        offMainWork: @escaping @Sendable (SimDuration) -> Void = { _ in }
    ) {
        self.plan = plan
        self.executor = executor
        self.globals = globals
        self.frameAware = frameAware
        self.offMainWork = offMainWork
        built = Array(repeating: false, count: plan.serviceCosts.count)
    }

    package var context: ProcessContext { plan.context }

    /// Builds `service` on first use under lazy globals (eager ones are built at launch).
    package func resolve(_ service: Int) {
        guard globals.isLazy, !built[service] else { return }
        built[service] = true
        executor.work(plan.serviceCosts[service])
    }

    /// Whether `block` does nothing here: a main-app-only block outside the main app.
    public func isNoOp(_ block: ReadinessBlock) -> Bool {
        block.mainAppOnly && !context.isMainApp
    }

    /// Runs `block` on the main executor. `ownTurn`: the design gave it a turn of its own, so a
    /// no-op block wasted that slot. Call it on the main executor.
    public func run(_ block: ReadinessBlock, ownTurn: Bool) {
        let start = executor.now
        if isNoOp(block) {
            executor.work(ReadinessBlock.noOpCost)
            if ownTurn { recorder.wastedSlots += 1 }
        } else {
            for s in block.services { resolve(s) }
            executor.work(block.duration)
        }
        if isOnMainExecutor() {
            recorder.runs.append((block, start, executor.now, true))
        } else {
            // A policy broke its confinement: recorded from this thread, under the off-main lock.
            recorder.recordOffMain(block, start: start, end: executor.now)
        }
    }

    /// Runs `block` on the calling background thread (the article's class after ready).
    public func runOffMain(_ block: ReadinessBlock) {
        let start = executor.now
        offMainWork(isNoOp(block) ? ReadinessBlock.noOpCost : block.duration)
        recorder.recordOffMain(block, start: start, end: executor.now)
    }

    /// The app-ready flag became true now (`t_app_ready_ms`).
    public func markAppReady() {
        if recorder.appReady == nil { recorder.appReady = executor.now }
    }

    // MARK: The launch script, shared by both drivers.

    /// The first main turn: prelaunch work, globals, launch registrations; then the ready turn.
    package func launchJob(policy: any ReadinessPolicy) {
        executor.work(context.prelaunch)
        switch globals {
        case .eager:
            executor.work(plan.eagerGlobalsCost)
            for i in built.indices { built[i] = true }
        case .lazyRegistry, .lazyOnce:
            executor.work(plan.profile.registrySetupPerService * Int64(plan.serviceCosts.count))
        }
        for block in plan.blocks where block.registration == .launch { policy.register(block) }
        executor.async { [self] in readyTurn(policy: policy) }
    }

    /// The turn that sets app-ready and, in a context with a screen, builds the first screen.
    package func readyTurn(policy: any ReadinessPolicy) {
        recorder.readyTurnStart = executor.now
        policy.setAppReady()
        if context.hasUI {
            executor.work(context.firstScreen)
            recorder.screenBuilt = true
        } else {
            // Signal's setAppIsReady sets both flags in the extensions without a screen.
            recorder.uiReady = executor.now
            policy.setUIReady()
        }
        recorder.readyTurnEnd = executor.now
    }

    /// Called by the driver after every rendered frame.
    package func frameRendered(at vsync: SimInstant, policy: any ReadinessPolicy) {
        recorder.renderedFrames += 1
        guard recorder.screenBuilt, !recorder.firstFrameShown else { return }
        recorder.firstFrameShown = true
        recorder.uiReady = vsync
        executor.async { policy.setUIReady() }
    }

    /// Frames are drawn (and missed) once the first screen exists.
    package var framesActive: Bool { recorder.screenBuilt }

    /// The turn that handles one input event; its latency runs from the event's own time.
    package func handleInput(_ input: LaunchPlan.Input) {
        resolve(input.service)
        executor.work(plan.profile.inputCost)
        recorder.inputLatencies.append(executor.now - input.time)
    }
}
