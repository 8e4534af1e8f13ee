import Measurement
import Records
import Simulation
import Timelines

/// One run of `FanOutSimulation`: the event queue, the main thread's queue and what it is busy
/// with, and everything recorded so far. `FanOutSimulation.run` feeds it each event in time order
/// (`handle`), then takes the result (`finish`).
struct FanOutSimulationRun {
    typealias Event = FanOutSimulation.Event
    typealias MainJob = FanOutSimulation.MainJob

    /// Whether the run records its trace (`Request.recordTrace`).
    let recordTrace: Bool
    /// How many flows the run has (`Request.flows`): vsyncs stop once they are all done.
    let flows: Int
    let plans: [FlowPlan]
    let costs: FlowCosts
    let execution: FlowExecution
    /// The join blocks main (`DispatchGroup.wait()`): the tap's job lasts until the flow ends.
    let onMain: Bool
    let interval: SimDuration
    var events = EventQueue<Event>()

    var result: FanOutSimResult
    var trace: [TraceEvent] = []
    var latencies: [Int64] = []
    var threadSpans: [FlowExecution.ThreadSpan] = []
    var calls: [(flow: Int, record: FlowExecution.CallRecord)] = []
    /// Main's jobs in order; `head` is the next to run (the consumed prefix is dropped now and then).
    var mainQueue: [MainJob] = []
    var head = 0
    var busy: (job: MainJob, start: SimInstant)?
    var done = 0
    /// Frames on an idle main thread, one run (`SliceRun`) for a stretch with no other event
    /// between: the same slices as one `frame` event each, without making and keeping ~5 M of
    /// them in a default run.
    var frameRuns: [SliceRun] = []
    var finishes: [Int]

    init(_ request: FanOutSimulation.Request) {
        recordTrace = request.recordTrace
        flows = request.flows
        plans = FlowPlan.plans(count: request.flows, scenario: request.scenario, seed: request.seed)
        costs = request.costs
        execution = FlowExecution(shape: request.shape, costs: costs, batched: request.scenario.batchedMovies)
        onMain = request.shape.join == .waitOnMain
        interval = costs.frameInterval
        result = FanOutSimResult(flows: request.flows)
        finishes = [Int](repeating: 0, count: plans.count)
        for p in plans { events.schedule(.arrival(p.index), at: p.arrival, priority: 2) }
        events.schedule(.vsync(0), at: .zero, priority: 1)
    }

    /// When vsync `k` comes. Static, so that the hot loops of a debug build do not copy the whole
    /// run to call it (a non-mutating method takes `self` by value there).
    static func vsync(_ k: Int, _ interval: SimDuration) -> SimInstant { SimInstant(nanoseconds: Int64(k) * interval.nanoseconds) }

    mutating func handle(_ event: Event, at t: SimInstant) {
        switch event {
        case .arrival(let f):
            mainQueue.append(.tap(f))
        case .resultReady(let f):
            mainQueue.append(.ui(f))
        case .vsync(let k):
            vsyncArrived(k, at: t)
        case .mainDone:
            mainDone(at: t)
        }
        if head > 256 {
            mainQueue.removeFirst(head)
            head = 0
        }
        startMain(t)
    }

    mutating func vsyncArrived(_ k: Int, at t: SimInstant) {
        result.frames += 1
        // A frame still waiting for main when the next vsync comes is dropped.
        if head < mainQueue.count,
            let i = (head..<mainQueue.count).first(where: { if case .frame = mainQueue[$0] { true } else { false } }),
            case .frame(let old) = mainQueue[i]
        {
            mainQueue.remove(at: i)
            missFrame(old, at: t)
        }
        // Fast path: main idle, nothing queued, nothing due before the next event — the
        // frames until then each run on time (exactly what the queue would do, without an
        // event per frame: 27,000 frames per 300 flows otherwise).
        var next = k + 1
        if busy == nil, head == mainQueue.count, let until = events.nextTime {
            while Self.vsync(next - 1, interval) + costs.frameWork <= until { next += 1 }
            next -= 1
            if recordTrace, next > k { recordFrames(k..<next) }
            if next > k {
                result.frames += next - k - 1
                if done < flows { events.schedule(.vsync(next), at: Self.vsync(next, interval), priority: 1) }
                return
            }
            next = k + 1
        }
        mainQueue.append(.frame(k))
        if done < flows { events.schedule(.vsync(next), at: Self.vsync(next, interval), priority: 1) }
    }

    mutating func mainDone(at t: SimInstant) {
        guard let (job, start) = busy else { return }
        busy = nil
        switch job {
        case .frame(let k):
            if t > Self.vsync(k + 1, interval) { missFrame(k, at: t) }
        case .ui(let f):
            finishFlow(f, at: t)
        case .tap(let f):
            if onMain { finishFlow(f, at: t) }
        }
        if recordTrace {
            // Named only when traced; a flow's slice by its number (`FlowSliceNames`), no string each.
            let duration = (t - start).nanoseconds
            switch job {
            case .frame: trace.append(.slice("frame", on: "main", start: start.nanoseconds, duration: duration))
            case .ui(let f): trace.append(.slice(FlowSliceNames.uiUpdate, f, on: "main", start: start.nanoseconds, duration: duration))
            case .tap(let f):
                let name = onMain ? FlowSliceNames.tapWaitUpdate : FlowSliceNames.tap
                trace.append(.slice(name, f, on: "main", start: start.nanoseconds, duration: duration))
            }
        }
    }

    mutating func missFrame(_ k: Int, at t: SimInstant) {
        result.missedFrames += 1
        if recordTrace { trace.append(.instant("missed frame", on: "main", at: t.nanoseconds, value: Double(k))) }
    }

    mutating func recordFrames(_ frames: Range<Int>) {
        let start = Self.vsync(frames.lowerBound, interval).nanoseconds
        if var last = frameRuns.last, last.position == trace.count,
            last.start + Int64(last.count) * last.period == start
        {
            last.count += frames.count
            frameRuns[frameRuns.count - 1] = last
            return
        }
        frameRuns.append(
            SliceRun(
                "frame",
                on: "main",
                start: start,
                period: interval.nanoseconds,
                duration: costs.frameWork.nanoseconds,
                count: frames.count,
                position: trace.count
            )
        )
    }

    mutating func finishFlow(_ f: Int, at t: SimInstant) {
        finishes[f] += 1
        latencies.append((t - plans[f].arrival).nanoseconds)
        done += 1
    }

    /// Starts main's next job when it is idle: a tap runs the flow (the services in virtual time)
    /// and either blocks main until the flow ends or schedules the UI update for when it does.
    mutating func startMain(_ t: SimInstant) {
        guard busy == nil, head < mainQueue.count else { return }
        let job = mainQueue[head]
        head += 1
        let duration: SimDuration
        switch job {
        case .frame: duration = costs.frameWork
        case .ui: duration = costs.uiUpdate
        case .tap(let f):
            let flow = execution.run(plans[f], from: t + costs.tap)
            result.record(flow)
            threadSpans += flow.threads
            calls += flow.calls.map { (f, $0) }
            for b in flow.mainBlocked {
                let length = (b.end - b.start).nanoseconds
                result.mainBlockedNs += length
                result.mainBlockedMaxNs = max(result.mainBlockedMaxNs, length)
                if recordTrace {
                    trace.append(.slice("blocked in group.wait", on: "main", start: b.start.nanoseconds, duration: length))
                }
            }
            if onMain {
                duration = (flow.finish - t) + costs.uiUpdate
            } else {
                duration = costs.tap
                events.schedule(.resultReady(f), at: flow.finish, priority: 2)
            }
        }
        busy = (job, t)
        events.schedule(.mainDone, at: t + duration, priority: 0)
    }

    /// The result once every event has been handled: latency percentiles, the contract's verdict
    /// on the calls, thread counts, and with a trace the worker and call lanes.
    mutating func finish() -> FanOutSimResult {
        latencies.sort()
        result.latencyP50Ns = FanOutSimulation.nearestRank(latencies, 0.50)
        result.latencyP99Ns = FanOutSimulation.nearestRank(latencies, 0.99)
        result.latencyMaxNs = latencies.last ?? 0
        result.callsTotal = calls.count
        result.violation = FanOutContract.violation(calls: calls, finishes: finishes, sent: nil)
        result.applyThreads(threadSpans)
        if recordTrace {
            // Appended in place: a whole array added with `+=` copies every event and frees the
            // copy.
            trace.reserveCapacity(trace.count + threadSpans.count + calls.count + 2 * threadSpans.count)
            FanOutSimulation.threadTrace(threadSpans, into: &trace)
            FanOutSimulation.callTrace(calls, into: &trace)
            result.trace = trace
            result.frameRuns = frameRuns
        }
        return result
    }
}
