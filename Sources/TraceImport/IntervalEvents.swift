/// The signposted intervals of one process, paired begin to end: what a launch plan is built
/// from. Held in memory: a launch has hundreds of intervals, not millions.
public struct IntervalEvents: Sendable {
    public let process: String
    /// By start time; time zero is the first interval's start.
    public let intervals: [IntervalEvent]

    /// Intervals already paired (tests, or a launch built in code).
    public init(process: String, intervals: [IntervalEvent]) {
        self.process = process
        self.intervals = intervals
    }

    /// Reads every interval; `process` nil takes the process with the most intervals.
    public init(path: String, format: TraceFormat, process: String?) throws(TraceImportError) {
        var reader = try SignpostReader(path: path, format: format)
        defer { reader.close() }
        struct Open {
            var name: String
            var start: Int64
            var main: Bool
        }
        var open: [String: [String: [Open]]] = [:]  // process → key → stack
        var closed: [String: [IntervalEvent]] = [:]
        func fail(_ message: String) -> TraceImportError { TraceImportError(path: path, message: message) }
        while let e = try reader.next() {
            switch e.phase {
            case .instant: continue
            case .begin: open[e.process, default: [:]][e.key, default: []].append(Open(name: e.name, start: e.time, main: e.mainThread))
            case .end:
                var stack = open[e.process]?[e.key] ?? []
                guard let at = stack.lastIndex(where: { e.name.isEmpty || $0.name == e.name }) else {
                    throw fail("an interval end ('\(e.name)', process '\(e.process)') with no begin")
                }
                let b = stack.remove(at: at)
                open[e.process]![e.key] = stack
                guard e.time >= b.start else { throw fail("interval '\(b.name)' ends before it begins") }
                closed[e.process, default: []].append(
                    IntervalEvent(name: b.name, start: b.start, duration: e.time - b.start, mainThread: b.main)
                )
            }
        }
        guard !closed.isEmpty else { throw fail("no signposted intervals (begin and end) in any process") }
        let chosen: String
        if let process {
            guard closed[process] != nil else {
                throw fail("no intervals in process '\(process)'; processes with some: \(closed.keys.sorted().joined(separator: ", "))")
            }
            chosen = process
        } else {
            chosen = closed.max { a, b in a.value.count != b.value.count ? a.value.count < b.value.count : a.key > b.key }!.key
        }
        if let unclosed = open[chosen]?.values.flatMap({ $0 }).first {
            throw fail("interval '\(unclosed.name)' of process '\(chosen)' begins but never ends")
        }
        let sorted = closed[chosen]!.sorted { $0.start < $1.start }
        let zero = sorted[0].start
        self.process = chosen
        intervals = sorted.map { IntervalEvent(name: $0.name, start: $0.start - zero, duration: $0.duration, mainThread: $0.mainThread) }
    }
}
