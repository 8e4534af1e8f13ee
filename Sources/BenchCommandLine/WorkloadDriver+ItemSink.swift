import Measurement
import Processes
import Records
import Timelines

extension WorkloadDriver {
    /// Where finished items go, one at a time in matrix order: the records and summaries
    /// (`RunOutput`), the `--events` and `--perfetto` streams, and the report's aggregate.
    ///
    /// Nothing is kept per item beyond what the workload's aggregate keeps, so memory does not grow
    /// with --seeds.
    struct ItemSink<W: Workload> {
        var output: RunOutput
        /// `--events`: the rows of each item's timeline, with the item's factors stamped on.
        let events: EventsStream?
        /// `--perfetto`: each item's trace.
        var perfetto: PerfettoStream?
        var aggregate: W.Aggregate
        /// How many items were consumed.
        private(set) var finishedCount = 0
        private let origins: [String: VariantOrigin]

        /// Begins the output files: the records' header, then the streams the flags ask for.
        init(output: RunOutput, workload: W, common: CommonOptions, timeline: TimelineFile?, perfettoFile: TimelineFile?) throws {
            self.output = output
            origins = workload.variantOrigins
            try self.output.begin(factorNames: workload.factorNames)
            perfetto = try perfettoFile.map {
                try $0.perfettoStream(window: try common.perfettoWindowRange, limit: common.perfettoLimit)
            }
            events = try timeline?.eventsStream(runID: self.output.runID, workload: W.name, factorNames: workload.factorNames)
            aggregate = workload.emptyAggregate
        }

        /// Writes the item at `position` of `plan` and adds it to the aggregate; once the streams
        /// have the item's timeline, the aggregate keeps the sample without it.
        mutating func consume(_ position: Int, _ sample: W.Sample, of plan: ItemPlan<W>) throws {
            let workload = plan.workload
            let item = plan.item(at: position)
            let groups = workload.observations(for: item, sample: sample)
            try output.add(groups, origins: origins)
            if let events {
                var rows = workload.timeline(for: item, sample: sample)
                TimelineRecord.stampFactors(&rows, from: groups)
                try events.add(rows)
            }
            try perfetto?.add(workload.trace(for: item, sample: sample), itemsLeft: plan.count - position)
            let kept = events != nil || perfetto != nil ? workload.withoutTimeline(sample) : sample
            workload.aggregate(&aggregate, FinishedItem(index: plan.indices[position], item: item, sample: kept))
            finishedCount += 1
        }

        /// Adds the report's derived records (they carry the same variant origins as the items').
        mutating func addDerived(_ report: WorkloadReport) throws {
            try output.add(report.derived, origins: origins)
        }
    }
}
