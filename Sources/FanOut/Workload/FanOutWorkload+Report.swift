import Foundation
import Measurement

extension FanOutWorkload {
    public func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        var records = records(of: results)
        for i in records.indices { records[i].origin = VariantOrigin.of(records[i].variant, in: variantOrigins).rawValue }
        guard configuration.mode == .live else { return WorkloadReport(table: FanOutRanking.simTable(records: records)) }
        var notes: [String] = []
        var failure: BenchFailure?
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        notes.append(
            "timings on a shared, noisy host (\(ProcessInfo.processInfo.activeProcessorCount) cores); latencies are the model's × \(timeScale)"
        )
        var comparisons: [Comparison] = []
        for r in results {
            guard case .live(let live, let sim) = r.sample else { continue }
            if !live.complete { failure = BenchFailure.runtime("\(label(r.item)): flows still running after 600 s") }
            comparisons += Comparison.pairs(
                scenario: r.item.scenario.name,
                variant: r.item.variant.name,
                sim: sim.observations,
                live: live.observations
            )
        }
        var table = ""
        if !comparisons.isEmpty {
            table += Comparison.table(
                comparisons,
                shown: ["latency_p50_ms", "latency_p99_ms", "calls_per_flow", "threads_blocked_peak", "main_blocked_ms", "wasted_work_ms"],
                caption: "bench-group live vs sim (last seed per row; the same draws, × \(timeScale))"
            )
        }
        let overhead = records.filter { $0.scenario == Self.overheadScenario }
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
