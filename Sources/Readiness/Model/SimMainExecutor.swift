import Measurement
import Simulation

/// The main executor in virtual time: one serial queue of turns, timers, vsyncs and arrivals
/// (input events, registrations) from an `EventQueue`, integer nanoseconds throughout.
///
/// A turn runs to completion; a vsync that falls strictly inside a turn is a missed frame (once
/// frames are drawn), a vsync at which the executor is free renders a frame before any queued turn.
/// Every enqueue goes through the event queue stamped with its time, so turns run in the order
/// they were enqueued in time — an arrival during a long turn queues behind what that turn enqueued
/// earlier, and ahead of what it enqueued later.
package final class SimMainExecutor: MainExecutor, @unchecked Sendable {
    // Single-threaded: the simulation loop and everything it calls run on one thread.
    enum Arrival: Sendable {
        case turn(@Sendable () -> Void)
        case input(LaunchPlan.Input)
        /// Code on a background thread at this time (it may enqueue turns).
        case offMain(@Sendable () -> Void)
    }

    private var cursor = SimInstant.zero
    private var arrivals = EventQueue<Arrival>()
    private var queue: [Arrival] = []
    private var head = 0
    private var vsyncIndex: Int64 = 1
    private let interval: SimDuration
    private(set) package var lastInputArrival: SimInstant?
    package var session: LaunchSession!
    package var policy: (any ReadinessPolicy)!
    /// Turns after the launch turn count toward `main_max_stall_ms`.
    private var turns = 0

    package init(frameInterval: SimDuration) {
        interval = frameInterval
    }

    package var now: SimInstant { cursor }
    package func work(_ duration: SimDuration) { cursor = cursor + duration }
    package func async(_ job: @escaping @Sendable () -> Void) { arrivals.schedule(.turn(job), at: cursor) }
    package func asyncAfter(_ delay: SimDuration, _ job: @escaping @Sendable () -> Void) {
        arrivals.schedule(.turn(job), at: cursor + delay)
    }

    private func vsync(_ k: Int64) -> SimInstant { SimInstant(nanoseconds: interval.nanoseconds * k) }

    package var nextVsync: SimInstant? {
        guard session.framesActive else { return nil }
        var k = vsyncIndex
        while vsync(k) <= cursor { k += 1 }
        return vsync(k)
    }

    /// Schedules the plan's arrivals and the launch turn, then runs until everything drained.
    package static func run(
        plan: LaunchPlan,
        globals: GlobalsStrategy,
        variant: ReadinessVariant,
        parameters: FrameAwareScheduler.Parameters = .init(),
        horizon: SimDuration = .seconds(120),
        recordTimeline: Bool = false
    ) throws -> LaunchRecorder {
        let executor = SimMainExecutor(frameInterval: plan.profile.frameInterval)
        let session = LaunchSession(plan: plan, executor: executor, globals: globals, frameAware: parameters)
        if recordTimeline { session.recorder.trace = [] }
        let policy = variant.policy(session: session)
        executor.session = session
        executor.policy = policy
        session.isOnMainExecutor = { [unowned executor] in !executor.inOffMainRegistration }
        executor.arrivals.schedule(.turn { session.launchJob(policy: policy) }, at: .zero)
        for block in plan.blocks {
            switch block.registration {
            case .launch: break
            case .main(let t): executor.arrivals.schedule(.turn { policy.register(block) }, at: t)
            case .offMain(let t): executor.arrivals.schedule(.offMain { policy.registerOffMain(block) }, at: t)
            }
        }
        for input in plan.inputs { executor.arrivals.schedule(.input(input), at: input.time) }
        defer { executor.tearDown() }
        do { try executor.loop(until: SimInstant.zero + horizon) } catch let left as LeftBlocks {
            throw ReadinessContract.startsEveryBlockOnce.violated(at: left.event)
        }
        if let violation = session.recorder.contractViolation(plan: plan, end: executor.now) { throw violation }
        return session.recorder
    }

    /// Breaks the launch's reference cycles once it has run: the session holds this executor,
    /// which holds the session, the policy (which holds the session) and queued turns whose
    /// closures capture both. Without it every launch stayed allocated to the end of the process,
    /// about 30 KB an item (bench-readiness peaked at 37 / 52 / 120 MB at --seeds 1 / 10 / 50).
    private func tearDown() {
        session = nil
        policy = nil
        queue = []
        head = 0
        arrivals = EventQueue<Arrival>()
    }

    /// An input turn on the timeline, its value the input's latency (ms).
    private func traceTurn(_ turn: Arrival, start: SimInstant, end: SimInstant) {
        if case .input(let input) = turn {
            let latency = (end - input.time).milliseconds
            session.recorder.trace?.append(
                .slice("input", on: "main", start: start.nanoseconds, duration: (end - start).nanoseconds, value: latency)
            )
        }
    }

    /// The turns queued on main (the one about to run included), when it changed.
    private func traceDepth(at time: SimInstant) {
        let depth = queue.count - head
        guard depth != tracedDepth else { return }
        tracedDepth = depth
        session.recorder.trace?.append(.counter("main queue depth", unit: "turns", at: time.nanoseconds, value: Double(depth)))
    }

    /// The main queue's depth last put on the timeline.
    private var tracedDepth = -1

    /// A launch that cannot finish: the policy's work will never all start.
    private struct LeftBlocks: Error { var event: String }

    /// True while an off-main registration runs (a background thread's call, in virtual time).
    private(set) var inOffMainRegistration = false

    private func loop(until horizon: SimInstant) throws {
        var t = SimInstant.zero
        while true {
            while let next = arrivals.nextTime, next <= t {
                let (time, arrival) = arrivals.next()!
                switch arrival {
                case .turn, .input:
                    if case .input(let i) = arrival { lastInputArrival = i.time }
                    queue.append(arrival)
                case .offMain(let action):
                    cursor = time
                    inOffMainRegistration = true
                    action()
                    inOffMainRegistration = false
                }
            }
            cursor = t
            while vsync(vsyncIndex) < t { vsyncIndex += 1 }
            if session.framesActive, vsync(vsyncIndex) == t {
                work(session.plan.profile.frameCost)
                vsyncIndex += 1
                session.recorder.trace?.append(
                    .slice("frame", on: "main", start: t.nanoseconds, duration: session.plan.profile.frameCost.nanoseconds)
                )
                session.frameRendered(at: t, policy: policy)
                t = cursor
                continue
            }
            if head < queue.count {
                if session.recorder.trace != nil { traceDepth(at: t) }
                let turn = queue[head]
                head += 1
                let counting = session.framesActive
                let start = t
                switch turn {
                case .turn(let job): job()
                case .input(let input): session.handleInput(input)
                case .offMain: break
                }
                let end = cursor
                if session.recorder.trace != nil { traceTurn(turn, start: start, end: end) }
                turns += 1
                if turns > 1 { session.recorder.maxTurn = max(session.recorder.maxTurn, end - start) }
                if counting {
                    var k = vsyncIndex
                    while vsync(k) < end {
                        if vsync(k) > start {
                            session.recorder.missedFrames += 1
                            session.recorder.trace?.append(.instant("missed vsync", on: "main", at: vsync(k).nanoseconds))
                        }
                        k += 1
                    }
                }
                t = end
                continue
            }
            if head > 4096 {
                queue.removeFirst(head)
                head = 0
            }
            if session.recorder.trace != nil { traceDepth(at: t) }
            policy.onIdle()
            if arrivals.nextTime == t { continue }
            guard arrivals.nextTime != nil || policy.hasDeferredWork else { return }
            var next = arrivals.nextTime ?? SimInstant(nanoseconds: .max)
            if session.framesActive { next = min(next, vsync(vsyncIndex)) }
            guard next.nanoseconds != .max else {
                throw LeftBlocks(event: "\(t): the policy reports deferred work that nothing will start (no frames, no arrivals)")
            }
            guard next <= horizon else {
                throw LeftBlocks(event: "\(t): the launch did not drain within \(horizon.seconds) s of virtual time")
            }
            t = next
        }
    }
}
