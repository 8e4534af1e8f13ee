import Measurement
import Simulation

/// One run: a policy, a scenario and a trace in; measurements (and optionally the per-update
/// timeline) out.
public struct ThrottleRunResult: Sendable {
    public var metrics: ThrottleMetrics
    public var timeline: [UpdateRecord]
    /// The run's metrics, then the policy's own (e.g. Signal's estimator sample counts).
    public var observations: [Observation]
}

public enum ThrottleExperiment {
    /// Simulates `policy` on `scenario` replaying `trace` in virtual time, in the app pipeline
    /// `parameters.pipeline`. Deterministic: the same inputs give bit-identical results on every
    /// machine and build.
    public static func simulate(
        policy: ThrottlePolicy,
        parameters: ThrottlePolicy.Parameters,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        recordTimeline: Bool = false
    ) -> ThrottleRunResult {
        policy.visit(
            Simulate(scenario: scenario, trace: trace, pipeline: parameters.pipeline, recordTimeline: recordTimeline),
            parameters: parameters
        )
    }

    /// Simulates any policy (including one defined outside this module).
    public static func simulate<P: UpdateThrottler>(
        _ throttler: P,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        pipeline: ThrottlePipeline = .conversation,
        recordTimeline: Bool = false
    ) -> ThrottleRunResult {
        var simulator = MainThreadSimulator(
            policy: throttler,
            scenario: scenario,
            trace: trace,
            pipeline: pipeline,
            recordTimeline: recordTimeline
        )
        return simulator.run()
    }

    struct Simulate: ThrottlerVisitor {
        let scenario: ThrottleScenario
        let trace: CommitTrace
        let pipeline: ThrottlePipeline
        let recordTimeline: Bool

        func visit<P: UpdateThrottler>(_ throttler: P) -> ThrottleRunResult {
            ThrottleExperiment.simulate(throttler, scenario: scenario, trace: trace, pipeline: pipeline, recordTimeline: recordTimeline)
        }
    }

    /// The trace a scenario generates for a seed (what every policy replays).
    public static func trace(for scenario: ThrottleScenario, seed: UInt64) -> CommitTrace {
        .generated(scenario.arrivals, seed: seed, duration: scenario.duration)
    }
}
