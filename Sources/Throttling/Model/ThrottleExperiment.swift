import Measurement
import Simulation

/// One simulated run: a policy, a scenario and a trace in; measurements (and optionally the
/// per-update timeline) out.
public struct ThrottleRunResult: Sendable {
    public var metrics: ThrottleMetrics
    public var timeline: [UpdateRecord]
    public var observations: [Observation]
}

public enum ThrottleExperiment {
    /// Simulates `policy` on `scenario` replaying `trace` in virtual time. Deterministic: the
    /// same inputs give bit-identical results on every machine and build.
    public static func simulate(
        policy: ThrottlePolicy, parameters: ThrottlePolicy.Parameters, scenario: ThrottleScenario,
        trace: CommitTrace, recordTimeline: Bool = false
    ) -> ThrottleRunResult {
        simulate(policy.make(parameters), scenario: scenario, trace: trace, recordTimeline: recordTimeline)
    }

    /// Opens the existential once, so the simulator's hot loop calls the policy statically.
    public static func simulate<P: UpdateThrottler>(
        _ throttler: P, scenario: ThrottleScenario, trace: CommitTrace, recordTimeline: Bool = false
    ) -> ThrottleRunResult {
        var simulator = MainThreadSimulator(policy: throttler, scenario: scenario, trace: trace, recordTimeline: recordTimeline)
        let metrics = simulator.run()
        return ThrottleRunResult(
            metrics: metrics, timeline: simulator.timeline,
            observations: metrics.observations(bytesPerRow: scenario.bytesPerPendingRow)
        )
    }

    /// The trace a scenario generates for a seed (what every policy replays).
    public static func trace(for scenario: ThrottleScenario, seed: UInt64) -> CommitTrace {
        .generated(scenario.arrivals, seed: seed, duration: scenario.duration)
    }
}
