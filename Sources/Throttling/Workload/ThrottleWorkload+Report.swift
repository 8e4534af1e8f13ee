import Foundation
import Measurement
import Records
import Simulation

extension ThrottleWorkload {
    /// The metrics compared live against simulated.
    public static let comparedMetrics = [
        "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "missed_vsyncs", "janky_frames",
        "hitch_ms_per_s", "updates", "rows_per_update_mean", "update_cpu_ms", "undelivered",
    ]

    /// What the report keeps of a run while its items stream past: totals and, live, the
    /// live-versus-simulated comparisons — never a sample, so a run of a thousand seeds holds what
    /// a run of one does (each sample's latency histogram is 180 KiB).
    public struct Totals: Sendable {
        public var events = 0
        public var wallSeconds = 0.0
        public var comparisons: [Comparison] = []
    }

    public var emptyAggregate: Totals { Totals() }

    public func aggregate(_ totals: inout Totals, _ r: FinishedItem<Item, Sample>) {
        totals.events += r.sample.sim.metrics.events
        totals.wallSeconds += r.sample.simWallSeconds
        guard let live = r.sample.live else { return }
        totals.comparisons += r.item.comparisons(sim: r.sample.sim.observations, live: live.observations, metrics: Self.comparedMetrics)
    }

    public func report(_ totals: Totals, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
        try userTrace?.checkReplays()
        let names = scenarios.map(\.name)
        var notes: [String] = []
        var parameters: [String: JSONValue] = [:]
        let events = totals.events
        let wall = totals.wallSeconds
        parameters["sim_events"] = .number(Double(events))
        parameters["sim_wall_s"] = .number(wall)
        parameters["sim_events_per_s"] = .number(wall > 0 ? Double(events) / wall : 0)
        guard configuration.mode == .live else {
            if userTrace != nil, seeds.count > 1 {
                notes.append("a replayed trace is the same for every seed: repetitions are identical")
            }
            return WorkloadReport(
                table: ThrottleRanking.render(summaries: summaries, scenarios: names),
                notes: notes,
                parameters: parameters
            )
        }
        let comparisons = totals.comparisons
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if configuration.backgroundThreads + 2 > cores {
            notes.append(
                "\(configuration.backgroundThreads) background threads + producer + main thread oversubscribe \(cores) cores: expect preemption"
            )
        }
        let table =
            ThrottleRanking.render(summaries: summaries.filter { $0.mode == "live" }, scenarios: names)
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
