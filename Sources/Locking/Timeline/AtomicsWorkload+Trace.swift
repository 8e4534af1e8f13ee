import Timelines

extension AtomicsWorkload {
    package static let hasTrace = true

    /// Each measured repetition of each variant as a timeline (live time since its first worker
    /// started): a track per contending thread, `thread 1` … `thread N`, with the sampled
    /// operations (`LockSampling`: one in every 128 batches) as a `wait` slice then a `hold` slice
    /// (a lock-free variant's as one `operation` slice), and at each thread's end a `done` instant
    /// whose value is the operations that thread completed (the run's `operations` add them up).
    /// Recorded only when asked: a default run samples nothing.
    package func trace(for item: Item, sample: Sample) -> [ItemTrace] {
        let factors = item.cell.factors
        let detail = ContentionCell.factorNames.map { "\($0)=\(factors[$0] ?? "")" }.joined(separator: " ")
        return sample.runs.filter { !$0.sample.lockSamples.isEmpty }.map { run in
            ItemTrace(
                scenario: item.cell.operation.name,
                variant: run.variant.name,
                mode: "live",
                seed: run.seed,
                repetition: run.repetition,
                events: Self.events(run.sample),
                detail: detail
            )
        }
    }

    /// The timeline of one repetition (see `trace(for:sample:)`).
    package static func events(_ sample: ContentionSample) -> [TraceEvent] {
        let origin = sample.traceOrigin
        func t(_ ns: UInt64) -> Int64 { Int64(bitPattern: ns &- origin) }
        var events: [TraceEvent] = []
        for (index, samples) in sample.lockSamples.enumerated() {
            let track = TraceName("thread \(index + 1)")
            var last: Int64 = 0
            for s in samples {
                if let acquired = s.acquired {
                    events.append(.slice("wait", on: track, start: t(s.start), duration: t(acquired) - t(s.start)))
                    events.append(.slice("hold", on: track, start: t(acquired), duration: t(s.released) - t(acquired)))
                } else {
                    events.append(.slice("operation", on: track, start: t(s.start), duration: t(s.released) - t(s.start)))
                }
                last = t(s.released)
            }
            let operations = index < sample.threadOperations.count ? sample.threadOperations[index] : 0
            events.append(.instant("done", on: track, at: last, value: Double(operations)))
        }
        return events
    }
}
