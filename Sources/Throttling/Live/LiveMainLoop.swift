import DequeModule
import Simulation

/// The real-time driver of `MainThreadMachine`: the same main thread, display, policy and load
/// stage as the simulation, run on a real thread against an injected clock.
///
/// Work really occupies the CPU (each item burns its modelled cost, stretched by any real
/// contention), vsyncs, timers and built loads are absolute deadlines on the clock, and commits
/// arrive from a producer thread through the `Mailbox`. Before an item ends, everything due while
/// it ran is admitted (a vsync that found the frame unfinished is a missed one), as the event
/// queue orders it in the simulation. With a `TestClock` the loop burns nothing: it advances the
/// clock by each cost, which makes a live run as deterministic as a simulated one.
struct LiveMainLoop<Policy: UpdateThrottler> {
    var machine: MainThreadMachine<Policy>
    let clock: any MonotonicClock
    let testClock: TestClock?
    let mailbox: Mailbox
    let hardStop: SimInstant
    var producerDone = false
    /// Commits drained from the mailbox but not yet due (a producer may post ahead of time).
    var inbox = Deque<Commit>()

    init(
        policy: Policy,
        scenario: ThrottleScenario,
        pipeline: ThrottlePipeline,
        clock: any MonotonicClock,
        mailbox: Mailbox,
        drainLimit: SimDuration,
        recordTimeline: Bool
    ) {
        self.machine = MainThreadMachine(policy: policy, scenario: scenario, pipeline: pipeline, recordTimeline: recordTimeline)
        self.clock = clock
        self.testClock = clock as? TestClock
        self.mailbox = mailbox
        self.hardStop = SimInstant.zero + scenario.duration + drainLimit
    }

    mutating func run() -> ThrottleRunResult {
        while true {
            let now = clock.now()
            admit(before: now + .nanoseconds(1))
            if let work = machine.fifo.popFirst() {
                let start = clock.now()
                let cost = machine.begin(work, at: start)
                if cost > .zero { occupy(until: start + cost) }
                let done = clock.now()
                // Everything due while the item ran comes first (strictly before its end, as the
                // simulation's event order has it).
                admit(before: done)
                machine.end(at: done)
                // Stop the moment the last commit is on screen, as the simulation does.
                if producerDone, inbox.isEmpty, machine.delivered { return machine.finish(at: done) }
                continue
            }
            if producerDone, inbox.isEmpty, machine.delivered { break }
            if now > hardStop { break }
            var wake = machine.display.nextVsync
            if let t = machine.timerWake { wake = min(wake, t) }
            if let l = machine.loadReady { wake = min(wake, l) }
            if let t = machine.tickReady { wake = min(wake, t) }
            if let c = inbox.first?.time { wake = min(wake, c) }
            mailbox.wait(until: wake, on: clock)
        }
        return machine.finish(at: clock.now())
    }

    /// Occupies the main thread until `instant`: burns real CPU, or moves a test clock there.
    func occupy(until instant: SimInstant) {
        if let testClock {
            testClock.sleep(until: instant)
        } else {
            clock.burn(until: instant)
        }
    }

    /// Hands the machine, in time order, everything due strictly before `limit`: commits, the
    /// policy's timer, a built load, a display-link callback, vsyncs. At equal times those come in
    /// that order, vsyncs last, as in the simulation.
    mutating func admit(before limit: SimInstant) {
        let (posted, closed) = mailbox.drain()
        inbox.append(contentsOf: posted)
        if closed { producerDone = true }
        while true {
            let vsync = machine.display.nextVsync
            let commit = inbox.first?.time
            let timer = machine.timerWake
            let load = machine.loadReady
            let tick = machine.tickReady
            var earliest: SimInstant?
            for t in [commit, timer, load, tick] { if let t, earliest == nil || t < earliest! { earliest = t } }
            if let earliest, earliest < limit, earliest <= vsync {
                if commit == earliest {
                    machine.commit(inbox.removeFirst(), at: earliest)
                } else if timer == earliest {
                    machine.timerDue()
                } else if load == earliest {
                    machine.loadBuilt()
                } else {
                    machine.tickDelivered()
                }
            } else if vsync < limit {
                machine.vsync()
            } else {
                return
            }
        }
    }
}
