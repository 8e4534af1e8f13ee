import BenchCommandLine
import Foundation
import Measurement
import Simulation
import Throttling

/// Runs the plan live (real threads, CPU, clock) and, for each item, the same scenario in virtual
/// time, then reports both side by side.
struct LiveRunner {
    let plan: RunPlan

    /// The metrics compared live against simulated.
    static let compared = [
        "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "missed_vsyncs", "janky_frames",
        "hitch_ms_per_s", "updates", "rows_per_update_mean", "update_cpu_ms", "undelivered",
    ]

    func run() throws {
        BenchMain.warnIfDebug("bench-throttle --mode live measures real time", quiet: plan.common.quiet)
        var output = try RunOutput(workload: "throttle", options: plan.common)
        var timeline = plan.options.events.map { TimelineWriter(path: $0, runID: output.runID) }
        try timeline?.prepare()
        var progress = Progress(total: plan.items.count, quiet: plan.common.quiet)
        var comparisons: [Comparison] = []
        for item in plan.items {
            let trace = plan.trace(for: item.scenario, seed: item.seed)
            let params = plan.options.parameters
            let sim = ThrottleExperiment.simulate(policy: item.policy, parameters: params, scenario: item.scenario, trace: trace)
            let live = LiveThrottleRun.run(
                policy: item.policy, parameters: params, scenario: item.scenario, trace: trace,
                backgroundThreads: plan.options.backgroundThreads, recordTimeline: timeline != nil
            )
            for (mode, result) in [("sim", sim), ("live", live)] {
                output.add(result.observations, scenario: item.scenario.name, variant: item.policy.rawValue,
                           mode: mode, seed: item.seed, repetition: item.repetition)
            }
            timeline?.add(live.timeline, scenario: item.scenario.name, variant: item.policy.rawValue, seed: item.seed)
            for metric in Self.compared {
                guard let s = sim.observations.first(where: { $0.metric == metric }),
                      let l = live.observations.first(where: { $0.metric == metric }) else { continue }
                comparisons.append(Comparison(scenario: item.scenario.name, variant: item.policy.rawValue,
                                              metric: metric, unit: s.unit, sim: s.value, live: l.value))
            }
            progress.advance("\(item.scenario.name) \(item.policy.rawValue) live")
        }
        progress.finish()
        try timeline?.write()
        var notes: [String] = []
        if BuildInfo.isDebug { notes.append("live numbers from a debug build: use swift run -c release") }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if plan.options.backgroundThreads + 2 > cores {
            notes.append("\(plan.options.backgroundThreads) background threads + producer + main thread oversubscribe \(cores) cores: expect preemption")
        }
        let records = output.records
        _ = try output.finish(parameters: plan.parameters, comparisons: comparisons, notes: notes) {
            RankingTable.render(records: records.filter { $0.mode == "live" }, scenarios: plan.scenarios.map(\.name))
                + "\n" + Self.comparisonTable(comparisons)
        }
    }

    static func comparisonTable(_ comparisons: [Comparison]) -> String {
        let shown = ["latency_p50_ms", "latency_p99_ms", "missed_vsyncs", "hitch_ms_per_s", "updates"]
        var table = TextTable(columns: ["scenario", "policy"] + shown.flatMap { ["\($0) sim", "live"] },
                              rightAligned: Set(2..<(2 + 2 * shown.count)))
        var keys: [(String, String)] = []
        for c in comparisons where !keys.contains(where: { $0 == (c.scenario, c.variant) }) { keys.append((c.scenario, c.variant)) }
        for (scenario, variant) in keys {
            var row = [scenario, variant]
            for metric in shown {
                let c = comparisons.first { $0.scenario == scenario && $0.variant == variant && $0.metric == metric }
                row += [c.map { TextTable.number($0.sim) } ?? "-", c.map { TextTable.number($0.live) } ?? "-"]
            }
            table.add(row)
        }
        return "live versus simulated (same scenario, seed and trace)\n" + table.render()
    }
}
