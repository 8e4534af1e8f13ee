import Measurement
import Processes
import Records
import Timelines

extension WorkloadDriver {
    /// What the item workers deliver, put back in matrix order and consumed into an `ItemSink`:
    /// the samples, the isolated items that failed, and the first error that stops the run.
    struct ItemCollector<W: Workload> {
        private var buffer: ReorderBuffer<W.Sample>
        /// Isolated items that failed, by position (their failure does not stop the run).
        private(set) var isolatedFailures: [(position: Int, failure: IsolatedItemFailure)] = []
        /// The error of the earliest position that failed otherwise, or of a write that failed.
        private(set) var firstError: (index: Int, error: any Error)?
        /// Set when consuming failed (a results file could not be written): the workers stop.
        let writeFailed = StopFlag()

        init(count: Int) { buffer = ReorderBuffer(count: count) }

        /// Keeps what the item at `position` came back with, to be consumed in order.
        mutating func deliver(_ position: Int, _ result: Result<Outcome<W.Sample>, any Error>) {
            switch result {
            case .success(.stopped): return
            case .success(.sample(let sample)): buffer.arrive(.value(sample), at: position)
            case .success(.isolatedFailure(let failure)):
                isolatedFailures.append((position, failure))
                buffer.arrive(.nothing, at: position)
            case .failure(let error):
                buffer.arrive(.nothing, at: position)
                if firstError == nil || position < firstError!.index { firstError = (position, error) }
            }
        }

        /// Consumes every sample whose turn has come, until an error; `skippingGaps` at the end of
        /// the run passes over the items that never ran (an interrupt kept them from starting).
        mutating func drain(into sink: inout ItemSink<W>, plan: ItemPlan<W>, skippingGaps: Bool = false) {
            while firstError == nil, let (position, arrival) = buffer.pop(skippingGaps: skippingGaps) {
                guard case .value(let sample) = arrival else { continue }
                do { try sink.consume(position, sample, of: plan) } catch {
                    firstError = (position, error)
                    writeFailed.set()
                }
            }
        }

        /// The isolated failures in matrix order, once the run has ended without a stopping error.
        func failuresInOrder() throws -> [IsolatedItemFailure] {
            if let firstError { throw firstError.error }
            return isolatedFailures.sorted { $0.position < $1.position }.map(\.failure)
        }
    }

    /// Runs the plan's items on `jobs` workers and consumes each into `sink` in matrix order, as
    /// soon as the items before it have been; returns the isolated items that failed, in order.
    /// Throws the first error of an item that is not isolated, or of writing.
    static func runItems<W: Workload>(
        _ plan: ItemPlan<W>,
        into sink: inout ItemSink<W>,
        jobs: Int,
        common: CommonOptions
    ) throws
        -> [IsolatedItemFailure]
    {
        var collector = ItemCollector<W>(count: plan.count)
        let writeFailed = collector.writeFailed
        var progress = Progress(total: plan.count, quiet: common.quiet, name: "bench-\(W.name)")
        ItemScheduler(jobs: jobs).run(
            count: plan.count,
            isAlone: { plan.runsAlone($0) },
            canAbandon: { plan.canAbandon($0) },
            shouldStop: { Interruption.pending != nil || writeFailed.isSet },
            work: { try plan.run($0) },
            deliver: { position, result in
                collector.deliver(position, result)
                if case .success(.stopped) = result { return }
                progress.advance(plan.label(at: position))
                collector.drain(into: &sink, plan: plan)
            },
            tick: { progress.tick() }
        )
        if Interruption.pending != nil { ChildProcessRegistry.killAll() }
        // What is left after a gap (an item an interrupt kept from starting), in matrix order.
        collector.drain(into: &sink, plan: plan, skippingGaps: true)
        progress.finish()
        return try collector.failuresInOrder()
    }
}
