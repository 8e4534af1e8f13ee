import Simulation
import Timelines

/// The login flow under one strategy in virtual time: flows arrive open-loop, each starts with a
/// tap handled on a 60 Hz main thread, fans out to the seeded services, and ends with a UI update
/// on main. Main is a serial resource shared with the frames: a frame's work is released at each
/// vsync and must finish by the next one, so a main thread blocked in `DispatchGroup.wait()` shows
/// as frames missed, and a tap that arrives meanwhile waits its turn.
public enum FanOutSimulation {
    public struct Request: Sendable {
        public var shape: FanOutShape
        public var scenario: FanOutScenario
        public var seed: UInt64
        public var flows: Int
        public var costs = FlowCosts()
        public var recordTrace = false
    }

    private enum Event: Sendable {
        case arrival(Int), vsync(Int), mainDone, resultReady(Int)
    }

    private enum MainJob: Sendable {
        case tap(Int), ui(Int), frame(Int)
    }

    public static func run(_ request: Request) -> FanOutSimResult {
        let plans = FlowPlan.plans(count: request.flows, scenario: request.scenario, seed: request.seed)
        let costs = request.costs
        let execution = FlowExecution(shape: request.shape, costs: costs, batched: request.scenario.batchedMovies)
        let onMain = request.shape.join == .waitOnMain
        var events = EventQueue<Event>()
        for p in plans { events.schedule(.arrival(p.index), at: p.arrival, priority: 2) }
        events.schedule(.vsync(0), at: .zero, priority: 1)

        var result = FanOutSimResult(flows: request.flows)
        var trace: [TraceEvent] = []
        var latencies: [Int64] = []
        var threadSpans: [FlowExecution.ThreadSpan] = []
        var calls: [(flow: Int, record: FlowExecution.CallRecord)] = []
        var mainQueue: [MainJob] = []
        var head = 0
        var busy: (job: MainJob, start: SimInstant)?
        var done = 0
        let interval = costs.frameInterval

        func vsync(_ k: Int) -> SimInstant { SimInstant(nanoseconds: Int64(k) * interval.nanoseconds) }
        func missFrame(_ k: Int, at t: SimInstant) {
            result.missedFrames += 1
            if request.recordTrace { trace.append(.instant("missed frame", on: "main", at: t.nanoseconds, value: Double(k))) }
        }
        // Frames on an idle main thread, one run (`SliceRun`) for a stretch with no other event
        // between: the same slices as one `frame` event each, without making and keeping ~5 M
        // of them in a default run.
        var frameRuns: [SliceRun] = []
        func recordFrames(_ frames: Range<Int>) {
            let start = vsync(frames.lowerBound).nanoseconds
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
        var finishes = [Int](repeating: 0, count: plans.count)
        func finishFlow(_ f: Int, at t: SimInstant) {
            finishes[f] += 1
            latencies.append((t - plans[f].arrival).nanoseconds)
            done += 1
        }
        func startMain(_ t: SimInstant) {
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
                    if request.recordTrace {
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

        while let (t, event) = events.next() {
            switch event {
            case .arrival(let f):
                mainQueue.append(.tap(f))
            case .resultReady(let f):
                mainQueue.append(.ui(f))
            case .vsync(let k):
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
                    while vsync(next - 1) + costs.frameWork <= until { next += 1 }
                    next -= 1
                    if request.recordTrace, next > k { recordFrames(k..<next) }
                    if next > k {
                        result.frames += next - k - 1
                        if done < request.flows { events.schedule(.vsync(next), at: vsync(next), priority: 1) }
                        break
                    }
                    next = k + 1
                }
                mainQueue.append(.frame(k))
                if done < request.flows { events.schedule(.vsync(next), at: vsync(next), priority: 1) }
            case .mainDone:
                guard let (job, start) = busy else { break }
                busy = nil
                switch job {
                case .frame(let k):
                    if t > vsync(k + 1) { missFrame(k, at: t) }
                case .ui(let f):
                    finishFlow(f, at: t)
                case .tap(let f):
                    if onMain { finishFlow(f, at: t) }
                }
                if request.recordTrace {
                    // Named only when traced: a run without a trace builds no names.
                    let name: String
                    switch job {
                    case .frame: name = "frame"
                    case .ui(let f): name = FlowSliceName.make("ui-update flow ", flow: f)
                    case .tap(let f):
                        name =
                            onMain
                            ? FlowSliceName.make("flow ", flow: f, " (tap, wait, ui-update)") : FlowSliceName.make("tap flow ", flow: f)
                    }
                    trace.append(.slice(name, on: "main", start: start.nanoseconds, duration: (t - start).nanoseconds))
                }
            }
            if head > 256 {
                mainQueue.removeFirst(head)
                head = 0
            }
            startMain(t)
        }

        latencies.sort()
        result.latencyP50Ns = nearestRank(latencies, 0.50)
        result.latencyP99Ns = nearestRank(latencies, 0.99)
        result.latencyMaxNs = latencies.last ?? 0
        result.callsTotal = calls.count
        result.violation = FanOutContract.violation(calls: calls, finishes: finishes, sent: nil)
        result.applyThreads(threadSpans)
        if request.recordTrace {
            // Appended in place: a whole array added with `+=` copies each event (two retains)
            // and frees the copy (two releases), about 4 % of a traced default run.
            trace.reserveCapacity(trace.count + threadSpans.count + calls.count + 2 * threadSpans.count)
            threadTrace(threadSpans, into: &trace)
            callTrace(calls, into: &trace)
            result.trace = trace
            result.frameRuns = frameRuns
        }
        return result
    }

    /// The value at rank ⌈q·n⌉ (nearest rank, exact: no interpolation, no histogram).
    static func nearestRank(_ sorted: [Int64], _ q: Double) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// Worker slices on the lowest free worker track, and the threads-blocked counter, appended to
    /// `out` (in place: adding a whole array copies each event, two retains, and frees the copy).
    static func threadTrace(_ spans: [FlowExecution.ThreadSpan], into out: inout [TraceEvent]) {
        out.reserveCapacity(out.count + spans.count)
        var lanes = TrackLanes(prefix: "worker")
        for s in spans.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            let track = lanes.track(start: s.start, end: s.end)
            out.append(.slice(s.label, on: track, start: s.start.nanoseconds, duration: (s.end - s.start).nanoseconds))
        }
        for (t, n) in FanOutSimResult.sweep(spans.filter(\.blocked)) {
            out.append(.counter("threads blocked", unit: "threads", at: t.nanoseconds, value: Double(n)))
        }
    }

    /// Every call copy as a slice, on the lowest free "calls" lane, appended to `out`.
    static func callTrace(_ calls: [(flow: Int, record: FlowExecution.CallRecord)], into out: inout [TraceEvent]) {
        out.reserveCapacity(out.count + calls.count)
        var lanes = TrackLanes(prefix: "calls")
        for (flow, c) in calls.sorted(by: { ($0.record.start, $0.record.end, $0.flow) < ($1.record.start, $1.record.end, $1.flow) }) {
            let track = lanes.track(start: c.start, end: c.end)
            let name = FlowSliceName.make(c.kind.rawValue, c.copy > 0 ? " hedge flow " : " flow ", flow: flow, " ", c.how.rawValue)
            out.append(.slice(name, on: track, start: c.start.nanoseconds, duration: (c.end - c.start).nanoseconds))
        }
    }
}
