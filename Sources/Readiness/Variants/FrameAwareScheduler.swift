import Simulation

/// Ours: Signal's guarantees for the sync kinds, a frame-aware scheduler for the deferred ones.
///
/// Will and did blocks keep Signal's contract (flag first, FIFO, inline in the ready turn) because
/// their callers rely on it. Polite blocks — including those registered after ready — go to one
/// FIFO queue (nothing overtakes), main-app-only ones are dropped at registration outside the main
/// app (no wasted slot), and nothing deferred starts before the first screen is shown. A deferred
/// block starts only when the main executor is idle (so queued input always goes first) and:
/// - its estimated duration fits before the next vsync, or
/// - it could never fit in a frame, a frame has just been drawn, and input has been quiet for the
///   bound: it then costs the fewest frames possible and an input arriving during it waits at most
///   its duration, which the scheduler only allows when the estimate is within `inputBound`;
/// - a block estimated above `inputBound` waits for `longQuiet` without input.
/// Estimates are per-block durations learned from earlier launches (in the model: within ×/÷2 of
/// the truth), so the bound is a bound on estimates: an underestimated long block can still delay
/// input past it — `input_latency_p99_ms` shows how often that matters.
package final class FrameAwareScheduler: ReadinessPolicy, @unchecked Sendable {
    package struct Parameters: Sendable, Hashable {
        /// The longest estimated delay a deferred block may impose on an input event.
        package var inputBound = SimDuration.milliseconds(100)
        /// A block estimated above the bound waits for this much input silence.
        package var longQuiet = SimDuration.milliseconds(500)
        /// Slack kept before a vsync.
        package var margin = SimDuration.milliseconds(1)
        package init() {}
    }

    // Confined to the main executor.
    private let session: LaunchSession
    private let parameters: Parameters
    private let gates = ReadinessGates()
    private var deferred: [ReadinessBlock] = []
    private var head = 0
    private var running = false

    package init(session: LaunchSession, parameters: Parameters) {
        self.session = session
        self.parameters = parameters
    }

    package func register(_ block: ReadinessBlock) {
        if gates.register(block, in: session) || session.isNoOp(block) { return }
        deferred.append(block)
    }

    package func registerOffMain(_ block: ReadinessBlock) {
        session.executor.async { [self] in register(block) }
    }

    package func setAppReady() { gates.setAppReady(in: session) }

    package func setUIReady() { gates.setUIReady(in: session) }

    package var hasDeferredWork: Bool { head < deferred.count }

    package func onIdle() {
        guard gates.uiReady, !running, head < deferred.count else { return }
        let block = deferred[head]
        guard mayStart(block) else { return }
        head += 1
        running = true
        session.executor.async { [self] in
            session.run(block, ownTurn: true)
            running = false
        }
    }

    private func mayStart(_ block: ReadinessBlock) -> Bool {
        let executor = session.executor
        guard let vsync = executor.nextVsync else { return true }  // no screen: nothing to protect
        let now = executor.now
        let estimate = block.estimate
        if estimate + parameters.margin <= vsync - now { return true }
        let frame = session.plan.profile.frameInterval
        let frameBudget = frame - session.plan.profile.frameCost
        let neverFits = estimate + parameters.margin > frameBudget
        // "Just after a frame": in virtual time the idle turn begins the instant the frame ends
        // (`vsync - now == frameBudget`); live, the executor notices it a few microseconds later
        // (its wake-up), so the exact test never held and such a block never started. The
        // margin is the slack allowed; virtual-time results are the same with it (baseline).
        let afterFrame = vsync - now + parameters.margin >= frameBudget
        let quiet = executor.lastInputArrival.map { now - $0 } ?? SimDuration(nanoseconds: .max)
        let needed = estimate <= parameters.inputBound ? parameters.inputBound : parameters.longQuiet
        return neverFits && afterFrame && quiet >= needed
    }
}
