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

    enum Event: Sendable {
        case arrival(Int), vsync(Int), mainDone, resultReady(Int)
    }

    enum MainJob: Sendable {
        case tap(Int), ui(Int), frame(Int)
    }

    public static func run(_ request: Request) -> FanOutSimResult {
        var run = FanOutSimulationRun(request)
        while let (t, event) = run.events.next() {
            run.handle(event, at: t)
        }
        return run.finish()
    }

    /// The value at rank ⌈q·n⌉ (nearest rank, exact: no interpolation, no histogram).
    static func nearestRank(_ sorted: [Int64], _ q: Double) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// Worker slices on the lowest free worker track, and the threads-blocked counter, appended to
    /// `out` (in place: adding a whole array copies every event and frees the copy).
    static func threadTrace(_ spans: [FlowExecution.ThreadSpan], into out: inout [TraceEvent]) {
        out.reserveCapacity(out.count + spans.count)
        var lanes = TrackLanes(prefix: "worker")
        // In (start, end) order, ties in the order given: keys sorted, not the spans (the spans
        // stay where they are, read once each in order).
        var keys = spans.indices.map { (start: spans[$0].start.nanoseconds, end: spans[$0].end.nanoseconds, index: Int32($0)) }
        keys.sort { ($0.start, $0.end, $0.index) < ($1.start, $1.end, $1.index) }
        for key in keys {
            let s = spans[Int(key.index)]
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
        var names = FlowSliceNames.Calls()
        // In (start, end, flow) order, ties in the order given: keys sorted, not the 56-byte calls.
        var keys = calls.indices.map { i in
            (start: calls[i].record.start.nanoseconds, end: calls[i].record.end.nanoseconds, flow: calls[i].flow, index: Int32(i))
        }
        keys.sort { ($0.start, $0.end, $0.flow, $0.index) < ($1.start, $1.end, $1.flow, $1.index) }
        for key in keys {
            let (flow, c) = calls[Int(key.index)]
            let track = lanes.track(start: c.start, end: c.end)
            let name = names.name(c.kind, hedge: c.copy > 0, c.how)
            out.append(.slice(name, flow, on: track, start: c.start.nanoseconds, duration: (c.end - c.start).nanoseconds))
        }
    }
}
