import Measurement
import Records
import Simulation
import Timelines

/// One run: a policy, a scenario and a trace in; measurements (and optionally the per-update
/// timeline) out.
public struct ThrottleRunResult: Sendable, Codable {
    /// The first broken rule of the policy's contract (`ThrottleContract`), which fails the item.
    public var violation: ContractViolation? = nil
    public var metrics: ThrottleMetrics
    public var timeline: [UpdateRecord]
    /// Everything the main thread, the writer, the load builder and the display did, when the run
    /// recorded its timeline (`--perfetto`, `--events`); empty otherwise.
    public var trace: [TraceEvent] = []
    /// The run's metrics, then the policy's own (e.g. Signal's estimator sample counts).
    public var observations: [Observation]
}

public enum ThrottleExperiment {
    /// Simulates `policy` on `scenario` replaying `trace` in virtual time, in the app pipeline
    /// `parameters.pipeline`. Deterministic: the same inputs give bit-identical results on every
    /// machine and build.
    public static func simulate(
        policy: ThrottlerVariant,
        parameters: ThrottleParameters,
        scenario: ThrottleScenario,
        trace: CommitTrace,
        recordTimeline: Bool = false
    ) -> ThrottleRunResult {
        policy.simulate(parameters, scenario: scenario, trace: trace, recordTimeline: recordTimeline)
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

    /// The trace a scenario generates for a seed (what every policy replays).
    public static func trace(for scenario: ThrottleScenario, seed: UInt64) -> CommitTrace {
        .generated(scenario.arrivals, seed: seed, duration: scenario.duration)
    }
}
