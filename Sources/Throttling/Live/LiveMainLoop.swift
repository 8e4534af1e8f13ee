import DequeModule
import Foundation
import Simulation

/// The live counterpart of `MainThreadSimulator`: the same FIFO main thread, display and policy,
/// run on a real thread against the real monotonic clock.
///
/// Work really occupies the CPU (frames and updates burn their modelled cost, stretched by any
/// real contention), vsyncs are absolute deadlines on `CLOCK_MONOTONIC`, commits arrive from a
/// producer thread, and the policy is told the costs it actually measured. Frame and latency
/// accounting are shared with the simulator (`DisplayState`, `UpdatePipeline`), so a live number
/// and a simulated one mean the same thing.
struct LiveMainLoop<Policy: UpdateThrottler> {
    var policy: Policy
    let scenario: ThrottleScenario
    let clock: MonotonicClock
    let mailbox: Mailbox
    let hardStop: SimInstant
    var display: DisplayState
    var pipeline: UpdatePipeline
    var fifo = Deque<MainThreadWork>()
    var producerDone = false
    /// Commits drained from the mailbox but not yet due (the producer posts them on time, so
    /// this only holds commits whose time is within the same instant as a vsync being handled).
    var inbox = Deque<Commit>()

    init(policy: Policy, scenario: ThrottleScenario, clock: MonotonicClock, mailbox: Mailbox,
         drainLimit: SimDuration, recordTimeline: Bool) {
        self.policy = policy
        self.scenario = scenario
        self.clock = clock
        self.mailbox = mailbox
        self.hardStop = SimInstant.zero + scenario.duration + drainLimit
        self.display = DisplayState(vsyncHz: scenario.vsyncHz)
        self.pipeline = UpdatePipeline(scenario: scenario, recordTimeline: recordTimeline)
    }

    mutating func run() -> (ThrottleMetrics, [UpdateRecord]) {
        while true {
            let now = clock.now()
            admit(before: now + .nanoseconds(1))
            if let work = fifo.popFirst() {
                execute(work)
                continue
            }
            if producerDone, inbox.isEmpty, pipeline.delivered { break }
            if now > hardStop { break }
            let wake = min(display.nextVsync, display.timerDeadline ?? display.nextVsync)
            mailbox.wait(until: clock.absolute(wake))
        }
        return (pipeline.finish(at: clock.now()), pipeline.timeline)
    }

    /// Queues, in time order, everything due strictly before `limit`: commits, the timer, vsyncs.
    /// At equal times commits and the timer go first, as in the simulator.
    mutating func admit(before limit: SimInstant) {
        let (posted, closed) = mailbox.drain()
        inbox.append(contentsOf: posted)
        if closed { producerDone = true }
        while true {
            let vsync = display.nextVsync
            let timer = display.timerDeadline.flatMap { display.timerQueued ? nil : $0 }
            let commit = inbox.first?.time
            let earliest = [commit, timer].compactMap { $0 }.min()
            if let earliest, earliest < limit, earliest <= vsync {
                if let commit, commit == earliest {
                    let c = inbox.removeFirst()
                    pipeline.arrived(c)
                    fifo.append(.notify(c))
                } else {
                    display.timerQueued = true
                    display.timerDeadline = nil
                    fifo.append(.timer)
                }
            } else if vsync < limit {
                let (tick, frame) = display.vsync(metrics: &pipeline.metrics)
                if tick { fifo.append(.linkTick) }
                if frame { fifo.append(.frame) }
            } else {
                return
            }
        }
    }

    mutating func execute(_ work: MainThreadWork) {
        let start = clock.now()
        let device = scenario.device
        switch work {
        case .notify(let commit):
            pipeline.notified(commit, at: start)
            burn(device.notificationCost, from: start)
            apply(policy.commitArrived(pipeline.context(now: start, display: display)))
        case .linkTick:
            display.tickQueued = false
            guard display.linkRunning else { return }
            burn(device.tickCost, from: start)
            apply(policy.displayLinkTicked(pipeline.context(now: start, display: display)))
        case .timer:
            display.timerQueued = false
            burn(device.tickCost, from: start)
            apply(policy.timerFired(pipeline.context(now: start, display: display)))
        case .frame:
            display.frameRunning = true
            pipeline.frameStarted()
            burn(device.frameCost, from: start)
            let done = clock.now()
            // Vsyncs that passed while the frame rendered found it unfinished: missed.
            admit(before: done)
            let (present, queuedAt) = display.frameFinished()
            pipeline.framePresented(at: present, queuedAt: queuedAt, lastPresent: display.lastPresent, interval: display.frameInterval)
            display.lastPresent = present
            policy.framePresented(at: present)
            var decision = policy.frameCompleted(pipeline.context(now: done, display: display), frameCost: done - start)
            if let amount = PublishAmount(decision.publish) { fifo.prepend(.publish(amount)) }
            decision.publish = .nothing
            apply(decision)
        case .publish(let amount):
            publish(amount)
        }
    }

    mutating func apply(_ decision: ThrottleDecision) {
        _ = display.apply(decision, now: clock.now())
        if let amount = PublishAmount(decision.publish) { publish(amount) }
    }

    mutating func publish(_ amount: PublishAmount) {
        let start = clock.now()
        guard let (rows, reset, cost) = pipeline.publish(amount, at: start) else { return }
        clock.burn(until: start + cost)
        let actual = clock.now() - start
        pipeline.updateRan(rows: rows, reset: reset, cost: actual, at: start)
        policy.updateApplied(rows: rows, reset: reset, cost: actual)
    }

    func burn(_ cost: SimDuration, from start: SimInstant) {
        let scaled = scenario.load.scale(cost, at: start)
        if scaled > .zero { clock.burn(until: start + scaled) }
    }
}
