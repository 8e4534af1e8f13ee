import Foundation
import Measurement
import Records

extension FanOutWorkload {
    /// What the report keeps of a run while its items stream past: live only, each flow run's
    /// comparisons and completeness and the overhead items' records — nothing of a sim item, whose
    /// table comes from the run's summaries, so memory does not grow with `--seeds`.
    public struct Kept: Sendable {
        public var comparisons: [Comparison] = []
        public var incomplete: [String] = []
        public var overheadRecords: [ResultRecord] = []
    }

    public var emptyAggregate: Kept { Kept() }

    public func aggregate(_ kept: inout Kept, _ r: FinishedItem<Item, Sample>) {
        switch r.sample {
        case .sim: return
        case .live(let live, let sim):
            if !live.complete { kept.incomplete.append(label(r.item)) }
            kept.comparisons += r.item.comparisons(sim: sim.observations, live: live.observations)
        case .overhead:
            kept.overheadRecords += records(of: [r]).filter { $0.scenario == Self.overheadScenario }
        }
    }

    public func report(_ kept: Kept, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        guard configuration.mode == .live else {
            let origins = variantOrigins  // built from the registry on each read: once, not per row
            return WorkloadReport(table: FanOutRanking.simTable(summaries: summaries) { VariantOrigin.of($0, in: origins).rawValue })
        }
        var notes: [String] = []
        var failure: BenchFailure?
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        notes.append(
            "timings on a shared, noisy host (\(ProcessInfo.processInfo.activeProcessorCount) cores); latencies are the model's × \(timeScale)"
        )
        if let last = kept.incomplete.last { failure = BenchFailure.runtime("\(last): flows still running after 600 s") }
        let comparisons = kept.comparisons
        var table = ""
        if !comparisons.isEmpty {
            table += Comparison.table(
                comparisons,
                shown: ["latency_p50_ms", "latency_p99_ms", "calls_per_flow", "threads_blocked_peak", "main_blocked_ms", "wasted_work_ms"],
                caption: "bench-group live vs sim (last seed per row; the same draws, × \(timeScale))"
            )
        }
        let overhead = kept.overheadRecords
        if !overhead.isEmpty {
            var t = TextTable(columns: ["primitive", "n", "wall ns/child", "cpu ns/child"], rightAligned: [1, 2, 3])
            for p in OverheadPrimitive.allCases {
                func values(_ m: String) -> [Double] { overhead.filter { $0.variant == p.rawValue && $0.metric == m }.map(\.value) }
                func med(_ m: String) -> String {
                    let v = values(m)
                    return v.isEmpty ? "-" : TextTable.spread(median: Statistics.median(v)!, min: v.min()!, max: v.max()!)
                }
                t.add([
                    p.rawValue, "\(values("overhead_wall_ns_per_child").count)", med("overhead_wall_ns_per_child"),
                    med("overhead_cpu_ns_per_child"),
                ])
            }
            table +=
                (table.isEmpty ? "" : "\n") + "fan-out child overhead (\(children) empty children; \(TextTable.spreadNote))\n" + t.render()
        }
        return WorkloadReport(table: table, comparisons: comparisons, notes: notes, failure: failure)
    }
}
