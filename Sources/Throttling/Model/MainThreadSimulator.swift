import Simulation

/// The virtual-time driver of `MainThreadMachine`: an event queue decides when commits, vsyncs,
/// timers, built loads and finished work happen; the machine decides everything else.
///
/// - Commits arrive open-loop from the trace; each is publishable at its own time and queues its
///   main-thread block.
/// - Every vsync queues a frame. A frame still unfinished at a vsync makes that vsync a missed
///   one (and no second frame is queued); a finished frame reaches the screen at the first vsync
///   at or after it finishes.
/// - A commit is on screen when the first frame that started after its update presents; its
///   latency runs from the commit's own time, so delays anywhere (queueing, throttling, a load
///   in flight, a busy main thread) count.
/// - The policy's display link ticks on the main thread every `vsyncHz / 20`-th vsync while it
///   runs; a tick that cannot run before the next one is due is dropped, like CADisplayLink's.
/// - After the last commit the run continues until everything is on screen, or until
///   `drainLimit`, after which what is left is reported as undelivered.
public struct MainThreadSimulator<Policy: UpdateThrottler> {
    enum Event: Sendable {
        case arrival(Commit)
        case vsync
        case timer(UInt64)
        case loadBuilt
        case tick
        case workDone
    }

    var machine: MainThreadMachine<Policy>
    let scenario: ThrottleScenario
    let drainLimit: SimDuration
    var queue = EventQueue<Event>()
    var arrivals: CommitTrace.Iterator
    /// The next commit, kept beside the queue rather than in it (half of all events are arrivals:
    /// a heap insertion and removal each), with the sequence number it took from the
    /// queue so that it runs exactly where it would have run queued.
    var nextArrival: Commit?
    var nextArrivalSequence: UInt64 = 0
    /// When the main thread's current item finishes, kept beside the queue the same way (there is
    /// at most one, and it is the other half of the events).
    var workDoneAt: SimInstant?
    var workDoneSequence: UInt64 = 0
    var arrivalsDone = false
    var now = SimInstant.zero
    var busy = false
    var scheduledTimerGeneration: UInt64 = 0
    var loadEventPending = false
    var tickEventPending = false

    public init(
        policy: Policy,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        pipeline: ThrottlePipeline = .conversation,
        drainLimit: SimDuration = .seconds(600),
        recordTimeline: Bool = false
    ) {
        self.machine = MainThreadMachine(policy: policy, scenario: scenario, pipeline: pipeline, recordTimeline: recordTimeline)
        self.scenario = scenario
        self.drainLimit = drainLimit
        self.arrivals = trace.makeIterator()
    }

    public var metrics: ThrottleMetrics { machine.pipeline.metrics }
    public var policy: Policy { machine.policy }

    /// Runs the whole scenario and returns the result.
    public mutating func run() -> ThrottleRunResult {
        scheduleNextArrival()
        // Vsyncs run after anything else at the same instant, so a frame finishing exactly at a
        // vsync makes that vsync.
        queue.schedule(.vsync, at: machine.display.vsyncTime(0), priority: 1)
        let hardStop = SimInstant.zero + scenario.duration + drainLimit
        events: while true {
            let time: SimInstant
            let event: Event
            // The earlier of the two kept beside the queue (both priority 0: time, then sequence),
            // then the queue's first if that runs before it: the order of one queue holding all.
            var takeArrival = false
            var takeWork = false
            var sideTime = SimInstant.zero
            var sideSequence: UInt64 = 0
            if let commit = nextArrival {
                takeArrival = true
                (sideTime, sideSequence) = (commit.time, nextArrivalSequence)
            }
            if let done = workDoneAt, !takeArrival || done < sideTime || (done == sideTime && workDoneSequence < sideSequence) {
                (takeArrival, takeWork) = (false, true)
                (sideTime, sideSequence) = (done, workDoneSequence)
            }
            if takeArrival || takeWork, !queue.nextPrecedes(time: sideTime, sequence: sideSequence) {
                time = sideTime
                if takeArrival {
                    event = .arrival(nextArrival!)
                    nextArrival = nil
                } else {
                    event = .workDone
                    workDoneAt = nil
                }
            } else if let (t, e) = queue.next() {
                (time, event) = (t, e)
            } else {
                break
            }
            if time > hardStop { break }
            now = time
            machine.pipeline.metrics.events += 1
            switch event {
            case .arrival(let commit):
                if !busy, machine.fifo.isEmpty {
                    // The main thread is idle and its queue empty: the commit's block would be
                    // queued and taken straight back by `startNextWork`, so it starts here instead
                    // (a deque append and removal per commit), after the same steps.
                    machine.committed(commit, at: now)
                    scheduleNextArrival()
                    if start(.notify(commit)) {
                        // Busy now: `startNextWork` would only repeat the wake-ups `start` just
                        // scheduled, with nothing run since.
                        if arrivalsDone, machine.delivered { break events }
                        continue events
                    }
                } else {
                    machine.commit(commit, at: now)
                    scheduleNextArrival()
                }
            case .vsync:
                machine.vsync()
                queue.schedule(.vsync, at: machine.display.nextVsync, priority: 1)
                scheduleWakeUps()
            case .timer(let generation):
                if generation == machine.timerGeneration, !machine.display.timerQueued { machine.timerDue() }
            case .loadBuilt:
                loadEventPending = false
                machine.loadBuilt()
            case .tick:
                tickEventPending = false
                machine.tickDelivered()
            case .workDone:
                busy = false
                machine.end(at: now)
            }
            startNextWork()
            if arrivalsDone, machine.delivered { break }
        }
        return machine.finish(at: now)
    }

    mutating func scheduleNextArrival() {
        if let commit = arrivals.next() {
            nextArrival = commit
            nextArrivalSequence = queue.takeSequence()
        } else {
            arrivalsDone = true
        }
    }

    mutating func startNextWork() {
        while !busy {
            guard let work = machine.fifo.popFirst() else { break }
            // An item that occupies the thread: `start` scheduled its wake-ups after `begin`, and
            // nothing has run since, so a second `scheduleWakeUps` would find nothing to do (it
            // was one of three calls per commit).
            if start(work) { return }
        }
        scheduleWakeUps()
    }

    /// Runs `work` on the idle main thread: it ends now, or occupies the thread for its cost.
    /// Returns whether it occupies the thread (then the wake-ups it asked for are scheduled).
    @inline(__always) @discardableResult mutating func start(_ work: MainThreadWork) -> Bool {
        let cost = machine.begin(work, at: now)
        scheduleWakeUps()
        if cost > .zero {
            busy = true
            workDoneAt = now + cost
            workDoneSequence = queue.takeSequence()
            return true
        } else {
            machine.end(at: now)
            return false
        }
    }

    /// Schedules what the machine asked for since the last call: its timer, a load being built.
    mutating func scheduleWakeUps() {
        if machine.timerGeneration != scheduledTimerGeneration {
            scheduledTimerGeneration = machine.timerGeneration
            if let deadline = machine.display.timerDeadline {
                queue.schedule(.timer(scheduledTimerGeneration), at: deadline)
            }
        }
        if let ready = machine.loadReady, !loadEventPending {
            loadEventPending = true
            queue.schedule(.loadBuilt, at: ready)
        }
        if let ready = machine.tickReady, !tickEventPending {
            tickEventPending = true
            queue.schedule(.tick, at: ready)
        }
    }
}
