import Simulation
import XCTest

@testable import Throttling

/// The frame and latency accounting, on traces small enough to work out by hand.
final class MainThreadSimulatorTests: XCTestCase {
    /// 60 Hz: V1 = 16.67 ms, V2 = 33.33, V3 = 50, V4 = 66.67. Frame 5 ms, update 40 ms.
    /// A commit at 20 ms waits for the frame running since V1 (done 21.67, presents at V2), then
    /// its update runs 21.67–61.67, so V3 (50 ms) finds the V2 frame unfinished: one missed vsync.
    /// That frame runs 61.67–66.67 and presents exactly at V4: latency 66.67 − 20 = 46.67 ms.
    func testOneLongUpdateMissesExactlyOneVsync() {
        let scenario = Fixture.scenario(device: Fixture.device(frameMs: 5, fixedMs: 40, resetMs: 100), duration: 0.1)
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(20, 1)]), scenario: scenario)
        XCTAssertEqual(r.metrics.missedVsyncs, 1)
        XCTAssertEqual(r.metrics.jankyFrames, 1)
        XCTAssertEqual(r.metrics.janky2xFrames, 0)
        XCTAssertEqual(r.metrics.latency.exactMax, 66_666_666 - 20_000_000)
        XCTAssertEqual(r.metrics.hitch.nanoseconds, 16_666_667, "one interval late: V4 − V2 − T")
        XCTAssertEqual(r.timeline.count, 1)
        XCTAssertEqual(r.timeline[0].frameLateness?.nanoseconds, 16_666_667)
        XCTAssertEqual(r.value("undelivered"), 0)
    }

    func testIdleDisplayNeverMissesAndDeliversInOneFrame() {
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(1, 1), (400, 2)]))
        XCTAssertEqual(r.metrics.missedVsyncs, 0)
        XCTAssertEqual(r.metrics.jankyFrames, 0)
        XCTAssertEqual(r.metrics.updates, 2)
        // Commit at 1 ms: the V0 frame (0–5 ms) started before it, so the V1 frame shows it at V2.
        XCTAssertEqual(r.metrics.latency.exactMax, 33_333_333 - 1_000_000)
    }

    func testResetAboveThresholdAndDrainIsReported() {
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(1, 250), (50, 3)]))
        XCTAssertEqual(r.metrics.resets, 1)
        XCTAssertEqual(r.timeline.map(\.reset), [true, false])
        XCTAssertEqual(r.value("rows_per_update_max"), 250)
        XCTAssertNotNil(r.value("drain_ms"))
    }

    func testPendingRowsArePeakAndTimeWeighted() {
        // fixed-rate 100 ms: 10 rows wait from 10 ms to 110 ms.
        let r = Fixture.run(FixedRateThrottler(interval: .milliseconds(100)), Fixture.commits([(10, 10)]))
        XCTAssertEqual(r.metrics.peakPendingRows, 10)
        XCTAssertEqual(r.updateTimesMs, [110])
        let runSeconds = r.metrics.end.seconds
        XCTAssertEqual(r.value("pending_rows_mean")!, 10 * 0.1 / runSeconds, accuracy: 1e-9)
    }

    func testUndeliveredWhenTheDrainLimitCutsTheRun() {
        // A policy that never publishes: everything is left undelivered and reported.
        struct Never: UpdateThrottler {
            mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision { .none }
        }
        var sim = MainThreadSimulator(
            policy: Never(),
            scenario: Fixture.scenario(duration: 1),
            trace: Fixture.commits([(1, 1), (2, 1)]),
            drainLimit: .seconds(1)
        )
        let m = sim.run().metrics
        XCTAssertEqual(m.commits, 2)
        XCTAssertEqual(m.delivered, 0)
        XCTAssertEqual(m.observations(bytesPerRow: 512).first { $0.metric == "undelivered" }?.value, 2)
        XCTAssertNil(m.observations(bytesPerRow: 512).first { $0.metric == "latency_p99_ms" }, "no latency is invented")
    }

    func testSameSeedSameRecordsAnotherSeedDifferent() {
        let scenario = ThrottleScenario.catalogue.first { $0.name == "mmpp" }!.scaled(by: 0.3)
        for policy in ThrottlerVariant.builtIn {
            let p = ThrottleParameters()
            let a = ThrottleExperiment.simulate(
                policy: policy,
                parameters: p,
                scenario: scenario,
                trace: ThrottleExperiment.trace(for: scenario, seed: 1)
            )
            let b = ThrottleExperiment.simulate(
                policy: policy,
                parameters: p,
                scenario: scenario,
                trace: ThrottleExperiment.trace(for: scenario, seed: 1)
            )
            let c = ThrottleExperiment.simulate(
                policy: policy,
                parameters: p,
                scenario: scenario,
                trace: ThrottleExperiment.trace(for: scenario, seed: 2)
            )
            XCTAssertEqual(a.observations, b.observations, policy.name)
            XCTAssertNotEqual(a.observations, c.observations, policy.name)
        }
    }

    func testLoadProfileStretchesCosts() {
        var scenario = Fixture.scenario(device: Fixture.device(frameMs: 5, fixedMs: 10))
        let base = Fixture.run(ImmediateThrottler(), Fixture.commits([(20, 1)]), scenario: scenario)
        scenario.load = .steady(2)
        let loaded = Fixture.run(ImmediateThrottler(), Fixture.commits([(20, 1)]), scenario: scenario)
        XCTAssertEqual(loaded.metrics.updateCPU.nanoseconds, 2 * base.metrics.updateCPU.nanoseconds)
    }

    func test120HzHalvesTheFrameInterval() {
        let r = Fixture.run(ImmediateThrottler(), Fixture.commits([(1, 1)]), scenario: Fixture.scenario(hz: 120))
        // V0 frame 0–5 ms presents at V1 = 8.33; commit at 1 ms shows in the V1 frame at V2 = 16.67.
        XCTAssertEqual(r.metrics.latency.exactMax, 16_666_666 - 1_000_000)
    }
}

extension MainThreadSimulatorTests {
    func testIncrementalUpdateCostIsCappedAtTheResetButIsNoReset() {
        let slow = DeviceProfile.slow
        XCTAssertEqual(slow.updateCost(rows: 100), .milliseconds(10 + 50 + 10))
        XCTAssertEqual(slow.updateCost(rows: 2_000), slow.resetCost, "a diff never costs more than a reload")
        XCTAssertEqual(slow.landCost(rows: 10, reset: false), .milliseconds(2.5 + 0.5))
        XCTAssertEqual(slow.landCost(rows: 2_000, reset: false), slow.landResetCost)
        // 30 commits of 100 rows merged into one publish: 3,000 rows, capped cost, not a reset.
        let r = Fixture.run(
            FixedRateThrottler(interval: .milliseconds(100)),
            Fixture.commits((0..<30).map { (10 + Double($0), 100) }),
            scenario: Fixture.scenario(device: Fixture.device(fixedMs: 5, perRowMs: 1, resetMs: 50))
        )
        XCTAssertEqual(r.timeline.map(\.rows), [3_000])
        XCTAssertEqual(r.timeline.map(\.cost), [.milliseconds(50)])
        XCTAssertEqual(r.metrics.resets, 0)
    }
}

extension MainThreadSimulatorTests {
    func testDisplayJitterIsBoundedFixedPerVsyncAndOffForTestDevices() {
        var ticks = Set<Int64>()
        for k in Int64(0)..<1_000 {
            let t = DisplayState.tickLatency(vsync: k)
            XCTAssertTrue(t >= .zero && t.nanoseconds < DisplayState.tickLatencyMax)
            XCTAssertEqual(t, DisplayState.tickLatency(vsync: k), "a pure function of the vsync")
            let f = DisplayState.frameJitter(vsync: k, max: .microseconds(500))
            XCTAssertTrue(f >= .zero && f < .microseconds(500))
            ticks.insert(t.nanoseconds)
        }
        XCTAssertGreaterThan(ticks.count, 990, "it does vary")
        XCTAssertEqual(DisplayState.frameJitter(vsync: 7, max: .zero), .zero)
        XCTAssertEqual(Fixture.device().frameJitter, .zero)
        XCTAssertEqual(DeviceProfile.slow.frameJitter, .microseconds(500))
    }
}
