import Measurement
import XCTest
@testable import Timekeeping

/// The clients on hand-made timelines: what each clock makes them do.
final class ClientTests: XCTestCase {
    func metric(_ observations: [Observation], _ name: String) -> Double? {
        observations.first { $0.metric == name }?.value
    }

    func context(_ schedule: ClockSchedule) -> ScoringContext {
        ScoringContext(suspensions: schedule.suspensions, horizon: 1_000_000_000_000_000, tolerance: 1_000_000)
    }

    /// The failure this workload exists to show: a 0.5 s job across a −1 s leap-second step.
    /// Timed with the wall clock it lasts −0.5 s; with every monotonic clock exactly 0.5 s.
    func testLeapSecondMakesWallClockDurationsNegativeAndLeavesMonotonicOnesCorrect() {
        let schedule = ClockSchedule(scenario: SkewScenario.named("leap-second")!)
        for kind in ClockKind.allCases {
            let now = VirtualNow()
            var meter = DurationMeterClient(clock: SimulatedClock(kind, schedule: schedule, now: now), parameters: .sim)
            now.trueTime = 59_900_000_000
            meter.handle(.start(0), trueTime: now.trueTime)
            now.trueTime = 60_400_000_000
            meter.handle(.end(0), trueTime: now.trueTime)
            let o = meter.observations(context(schedule))
            if kind.isWallClock {
                XCTAssertEqual(metric(o, "negative_durations"), 1, kind.name)
                XCTAssertEqual(metric(o, "max_abs_error_us")!, 1_000_000, accuracy: 1, kind.name)
            } else {
                XCTAssertEqual(metric(o, "negative_durations"), 0, kind.name)
                XCTAssertEqual(metric(o, "max_abs_error_us"), 0, kind.name)
            }
        }
    }

    /// The same through the whole sim runner: the wall-clock meters are off by the step, the
    /// monotonic ones exact.
    func testLeapSecondThroughTheRunner() {
        let scenario = SkewScenario.named("leap-second")!
        let schedule = ClockSchedule(scenario: scenario)
        for kind in ClockKind.allCases {
            let o = SimRunner.run(scenario: scenario, schedule: schedule, client: .durationMeter, source: kind, seed: 1)
            if kind.isWallClock {
                XCTAssertGreaterThan(metric(o, "max_abs_error_us")!, 999_000, kind.name)
            } else {
                XCTAssertEqual(metric(o, "negative_durations"), 0, kind.name)
                XCTAssertEqual(metric(o, "max_abs_error_us"), 0, kind.name)
            }
        }
    }

    /// A step a quarter of the way into a 30 s timeout: forward fires it at once (22.5 s early),
    /// backward delays it by the step; monotonic clocks fire on time either way.
    func testQuarterStepTimeouts() {
        for (name, sign) in [("step-plus-60s-quarter-timeout", 1.0), ("step-minus-60s-quarter-timeout", -1.0)] {
            let schedule = ClockSchedule(scenario: SkewScenario.named(name)!)
            for kind in ClockKind.allCases {
                let now = VirtualNow()
                var client = TimeoutClient(clock: SimulatedClock(kind, schedule: schedule, now: now), parameters: .sim)
                now.trueTime = 35_000_000_000
                client.handle(.arm(0), trueTime: now.trueTime)
                let fire = schedule.crossing(kind, reaching: client.wakeDeadline!, from: now.trueTime, limit: .max / 4)!
                now.trueTime = fire
                client.wake(trueTime: fire)
                XCTAssertNil(client.wakeDeadline)
                let o = client.observations(context(schedule))
                if kind.isWallClock {
                    XCTAssertEqual(Double(fire) / 1e9, sign > 0 ? 42.5 : 125, accuracy: 1e-6, "\(name) \(kind.name)")
                    XCTAssertEqual(metric(o, sign > 0 ? "timeouts_early" : "timeouts_late"), 1)
                } else {
                    XCTAssertEqual(fire, 65_000_000_000, "\(name) \(kind.name)")
                    XCTAssertEqual(metric(o, "timeout_error_ms"), 0)
                }
            }
        }
    }

    /// Signal's gate times itself with Date(): after a −1 h step it publishes nothing for an hour.
    func testAdaptiveGateStallsOnAWallClockStepBack() {
        let scenario = SkewScenario.named("step-minus-1h")!
        let schedule = ClockSchedule(scenario: scenario)
        let date = SimRunner.run(scenario: scenario, schedule: schedule, client: .adaptiveGate, source: .date, seed: 1)
        let mono = SimRunner.run(scenario: scenario, schedule: schedule, client: .adaptiveGate, source: .monotonic, seed: 1)
        XCTAssertGreaterThan(metric(date, "max_publish_gap_ms")!, 3_500_000)
        XCTAssertLessThan(metric(mono, "max_publish_gap_ms")!, 200)
    }

    /// The gate's estimator: a steady 20 fps link gives f = n / ((n−1)/20) > 20 (the bias of
    /// dividing by the count), so alpha = 0 and the target is the fast 50 ms.
    func testAdaptiveGateTargetFromSamples() {
        let now = VirtualNow()
        let schedule = ClockSchedule(events: [])
        var gate = AdaptiveUpdateGate(clock: SimulatedClock(.monotonic, schedule: schedule, now: now))
        XCTAssertEqual(gate.target(), 50_000_000)
        gate.resumeLink()
        for i in 0..<10 {
            now.trueTime = Int64(i) * 50_000_000
            gate.tick()
        }
        XCTAssertEqual(gate.target(), 50_000_000)
        // A 12.5 fps link: f = 10 / (9 × 0.08) = 13.9, alpha = 0.611, target = 0.05 + 0.95·0.611 s.
        var slow = AdaptiveUpdateGate(clock: SimulatedClock(.monotonic, schedule: schedule, now: now))
        slow.resumeLink()
        for i in 0..<10 {
            now.trueTime = Int64(i) * 80_000_000
            slow.tick()
        }
        let f = 10.0 / 0.72
        XCTAssertEqual(Double(slow.target()) / 1e9, 0.05 + 0.95 * ((20 - f) / 10), accuracy: 1e-9)
    }

    /// A backward step drains the naive token bucket: half the run admits nothing.
    func testRateLimiterUnderAdmitsAfterAStepBack() {
        let scenario = SkewScenario.named("step-minus-1h")!
        let schedule = ClockSchedule(scenario: scenario)
        let wall = SimRunner.run(scenario: scenario, schedule: schedule, client: .rateLimiter, source: .realtime, seed: 1)
        let boot = SimRunner.run(scenario: scenario, schedule: schedule, client: .rateLimiter, source: .boottime, seed: 1)
        XCTAssertGreaterThan(metric(wall, "admissions_under_pct")!, 40)
        XCTAssertEqual(metric(boot, "admissions_under_pct"), 0)
        XCTAssertEqual(metric(boot, "admissions_over_pct"), 0)
    }

    /// Across a 10 min suspend, CLOCK_MONOTONIC misses the sleep and CLOCK_BOOTTIME does not.
    func testSuspendSeparatesMonotonicFromBoottime() {
        let scenario = SkewScenario.named("suspend-10min")!
        let schedule = ClockSchedule(scenario: scenario)
        let mono = SimRunner.run(scenario: scenario, schedule: schedule, client: .timeout, source: .monotonic, seed: 1)
        let boot = SimRunner.run(scenario: scenario, schedule: schedule, client: .timeout, source: .boottime, seed: 1)
        XCTAssertGreaterThan(metric(mono, "timeouts_late")!, 0)
        XCTAssertEqual(metric(boot, "timeouts_late"), 0)
        XCTAssertEqual(metric(boot, "timeouts_early"), 0)
    }

    func testNoSkewBreaksNothing() {
        let scenario = SkewScenario.named("none")!
        let schedule = ClockSchedule(scenario: scenario)
        for client in ClientKind.allCases {
            for kind in ClockKind.allCases {
                let o = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: kind, seed: 7)
                let verdict = ClockReport.verdict(client, Dictionary(o.map { ($0.metric, $0.value) }, uniquingKeysWith: { a, _ in a }))
                XCTAssertFalse(verdict.broke, "\(client.name) on \(kind.name): \(verdict.text)")
            }
        }
    }

    func testSameSeedGivesIdenticalResultsAndAnotherSeedDiffers() {
        for scenario in [SkewScenario.named("strobe-50ms-500ms")!, SkewScenario.named("leap-smear-100s")!] {
            let schedule = ClockSchedule(scenario: scenario)
            var differs = false
            for client in ClientKind.allCases {
                let a = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: .date, seed: 11)
                let b = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: .date, seed: 11)
                let c = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: .date, seed: 12)
                XCTAssertEqual(a.map { $0.value.bitPattern }, b.map { $0.value.bitPattern }, "\(scenario.name) \(client.name)")
                if a != c { differs = true }
            }
            XCTAssertTrue(differs, scenario.name)
        }
    }
}
