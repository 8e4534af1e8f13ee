import BenchCommandLine
import Foundation
import Measurement
import Simulation
import Throttling

/// Runs the plan in virtual time and writes the results.
struct SimRunner {
    let plan: RunPlan

    func run() throws {
        var output = try RunOutput(workload: "throttle", options: plan.common)
        var timeline = plan.options.events.map { TimelineWriter(path: $0, runID: output.runID) }
        try timeline?.prepare()
        var progress = Progress(total: plan.items.count, quiet: plan.common.quiet)
        let started = ContinuousClock.now
        var events = 0
        var traces: [String: CommitTrace] = [:]
        for item in plan.items {
            let key = "\(item.scenario.name)/\(item.seed)"
            let trace = traces[key] ?? plan.trace(for: item.scenario, seed: item.seed)
            traces = [key: trace]  // one scenario/seed at a time: every policy shares it
            let result = ThrottleExperiment.simulate(
                policy: item.policy, parameters: plan.options.parameters, scenario: item.scenario,
                trace: trace, recordTimeline: timeline != nil
            )
            events += result.metrics.events
            output.add(result.observations, scenario: item.scenario.name, variant: item.policy.rawValue,
                       mode: "sim", seed: item.seed, repetition: item.repetition)
            timeline?.add(result.timeline, scenario: item.scenario.name, variant: item.policy.rawValue, seed: item.seed)
            progress.advance("\(item.scenario.name) \(item.policy.rawValue) seed \(item.seed)")
        }
        progress.finish()
        if let problem = plan.userTrace?.replayProblem { throw BenchFailure.input(problem.description) }
        let elapsed = started.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        try timeline?.write()
        var parameters = plan.parameters
        parameters["sim_events"] = .number(Double(events))
        parameters["sim_wall_s"] = .number(seconds)
        parameters["sim_events_per_s"] = .number(seconds > 0 ? Double(events) / seconds : 0)
        var notes: [String] = []
        if plan.userTrace != nil, plan.seeds.count > 1 {
            notes.append("a replayed trace is the same for every seed: repetitions are identical")
        }
        let records = output.records
        _ = try output.finish(parameters: parameters, notes: notes) {
            RankingTable.render(records: records, scenarios: plan.scenarios.map(\.name))
        }
    }
}
