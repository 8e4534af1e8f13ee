import Measurement
import Simulation
import XCTest

@testable import Throttling

/// The live driver's logic on a `TestClock`: with time advanced by the modelled costs instead of
/// burned, live mode must reproduce the simulation exactly, because both step the same
/// `MainThreadMachine`. A difference here is a bug in one of the drivers, not noise.
final class LiveMainLoopTests: XCTestCase {
    static let compared = [
        "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "commits", "undelivered", "updates", "publishes",
        "loads", "resets", "missed_vsyncs", "janky_frames", "hitch_ms_per_s", "update_cpu_ms", "offmain_cpu_ms",
        "pending_rows_peak", "estimator_samples_p50", "estimator_samples_max", "estimator_decisions",
    ]

    struct Both {
        let scenario: ThrottleScenario
        let trace: CommitTrace
        let pipeline: ThrottlePipeline

        func run<P: UpdateThrottler>(_ throttler: P) -> (sim: ThrottleRunResult, live: ThrottleRunResult, clock: TestClock) {
            let sim = ThrottleExperiment.simulate(throttler, scenario: scenario, trace: trace, pipeline: pipeline)
            let clock = TestClock()
            let live = LiveThrottleRun.runPreposted(throttler, scenario: scenario, trace: trace, pipeline: pipeline, clock: clock)
            return (sim, live, clock)
        }
    }

    func testLiveLoopOnATestClockMatchesTheSimulationForEveryPolicy() {
        let scenario = ThrottleScenario.catalogue.first { $0.name == "storm-slow" }!.scaled(by: 0.2)
        let trace = ThrottleExperiment.trace(for: scenario, seed: 1)
        for pipeline in ThrottlePipeline.allCases {
            for policy in ThrottlerVariant.builtIn {
                let (sim, live, clock) = Both(scenario: scenario, trace: trace, pipeline: pipeline).run(policy.make())
                for metric in Self.compared {
                    let s = sim.observations.first { $0.metric == metric }?.value
                    let l = live.observations.first { $0.metric == metric }?.value
                    XCTAssertEqual(s, l, "\(pipeline) \(policy.name) \(metric)")
                }
                XCTAssertGreaterThan(clock.now(), SimInstant.zero + .seconds(1), "the loop advanced the test clock")
            }
        }
    }

    func testLiveLoopWaitsOnTheInjectedClock() {
        // One commit at 500 ms: the loop sleeps on the clock (vsync by vsync), never on real time.
        let started = SystemMonotonicClock()
        let clock = TestClock()
        let r = LiveThrottleRun.runPreposted(
            ImmediateThrottler(),
            scenario: Fixture.scenario(duration: 1),
            trace: Fixture.commits([(500, 1)]),
            pipeline: .observer,
            clock: clock
        )
        XCTAssertEqual(r.metrics.delivered, 1)
        XCTAssertTrue(clock.sleeps.contains(Fixture.ms(500)), "woke for the commit's own time")
        XCTAssertGreaterThanOrEqual(clock.now(), Fixture.ms(500))
        XCTAssertLessThan(started.now().seconds, 0.4, "no real waiting")
    }
}

extension LiveMainLoopTests {
    func testParametersMetadataRecordsThePipeline() {
        var p = ThrottleParameters()
        XCTAssertEqual(p.metadata["pipeline"], .string("conversation"), "the default for every policy")
        p.pipeline = .observer
        XCTAssertEqual(p.metadata["pipeline"], .string("observer"))
        XCTAssertEqual(DeviceProfile.slow.metadata["land_reset_ms"], .number(18))
    }
}
