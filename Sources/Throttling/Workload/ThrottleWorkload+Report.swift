import Foundation
import Measurement
import Simulation

extension ThrottleWorkload {
    /// The metrics compared live against simulated.
    public static let comparedMetrics = [
        "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "missed_vsyncs", "janky_frames",
        "hitch_ms_per_s", "updates", "rows_per_update_mean", "update_cpu_ms", "undelivered",
    ]

    public func report(_ results: [FinishedItem<Item, Sample>], complete: Bool) throws -> WorkloadReport {
        try userTrace?.checkReplays()
        let records = records(of: results)
        let names = scenarios.map(\.name)
        var notes: [String] = []
        var parameters: [String: JSONValue] = [:]
        let events = results.reduce(0) { $0 + $1.sample.sim.metrics.events }
        let wall = results.reduce(0.0) { $0 + $1.sample.simWallSeconds }
        parameters["sim_events"] = .number(Double(events))
        parameters["sim_wall_s"] = .number(wall)
        parameters["sim_events_per_s"] = .number(wall > 0 ? Double(events) / wall : 0)
        guard configuration.mode == .live else {
            if userTrace != nil, seeds.count > 1 {
                notes.append("a replayed trace is the same for every seed: repetitions are identical")
            }
            return WorkloadReport(table: ThrottleRanking.render(records: records, scenarios: names), notes: notes, parameters: parameters)
        }
        var comparisons: [Comparison] = []
        for r in results {
            guard let live = r.sample.live else { continue }
            for metric in Self.comparedMetrics {
                guard let s = r.sample.sim.observations.first(where: { $0.metric == metric }),
                    let l = live.observations.first(where: { $0.metric == metric })
                else { continue }
                comparisons.append(
                    Comparison(
                        scenario: r.item.scenario.name,
                        variant: r.item.policy.name,
                        metric: metric,
                        unit: s.unit,
                        sim: s.value,
                        live: l.value
                    )
                )
            }
        }
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if configuration.backgroundThreads + 2 > cores {
            notes.append(
                "\(configuration.backgroundThreads) background threads + producer + main thread oversubscribe \(cores) cores: expect preemption"
            )
        }
        let table =
            ThrottleRanking.render(records: records.filter { $0.mode == "live" }, scenarios: names)
            + "\n" + Self.comparisonTable(comparisons)
        return WorkloadReport(table: table, comparisons: comparisons, notes: notes, parameters: parameters)
    }

    static func comparisonTable(_ comparisons: [Comparison]) -> String {
        Comparison.table(
            comparisons,
            shown: ["latency_p50_ms", "latency_p99_ms", "missed_vsyncs", "hitch_ms_per_s", "updates"],
            caption: "live versus simulated (same scenario, seed and trace)"
        )
    }
}
