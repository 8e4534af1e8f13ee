import CClockLoops
import XCTest

@testable import Timekeeping

/// `MonotonicDate` is Signal's type on Signal's semantics, read from its Linux twin.
final class MonotonicDateTests: XCTestCase {
    /// Signal's `-`: plain unsigned subtraction. In order it is exact; swapped, Signal traps, and
    /// the checked form reports the case the trap would have caught.
    func testSubtractionInOrderAndTheCaseWhereSignalTraps() {
        let a = MonotonicDate(nanoseconds: 5_000)
        let b = MonotonicDate(nanoseconds: 9_000)
        XCTAssertEqual((b - a).nanoseconds, 4_000)
        XCTAssertEqual((a - a).nanoseconds, 0)
        XCTAssertEqual(MonotonicDate.checkedDifference(b, a)?.nanoseconds, 4_000)
        XCTAssertNil(MonotonicDate.checkedDifference(a, b), "a before b: Signal's `a - b` traps here")
    }

    /// Signal's `adding`: a negative interval is clamped to zero (the date never moves back).
    func testAddingClampsANegativeInterval() {
        let a = MonotonicDate(nanoseconds: 1_000)
        XCTAssertEqual((a.adding(1) - a).nanoseconds, 1_000_000_000)
        XCTAssertEqual(a.adding(-1), a, "a negative interval adds nothing")
        XCTAssertEqual(a.adding(.nan), a)
        XCTAssertEqual(MonotonicDuration(clampingSeconds: -3).nanoseconds, 0)
        XCTAssertEqual(MonotonicDuration(clampingSeconds: 1e30).nanoseconds, .max)
        XCTAssertEqual(MonotonicDuration(nanoseconds: 123_456_789).milliseconds, 123)
        XCTAssertEqual(MonotonicDuration(milliseconds: 123).nanoseconds, 123_000_000)
    }

    /// It reads CLOCK_BOOTTIME (the clock that, like Darwin's CLOCK_MONOTONIC_RAW, counts suspend):
    /// a MonotonicDate taken between two CLOCK_BOOTTIME reads lies between them. CLOCK_MONOTONIC and
    /// CLOCK_MONOTONIC_RAW are behind CLOCK_BOOTTIME by the time this machine has spent suspended,
    /// so they cannot be told apart on a machine that never slept — the bracket is the check.
    func testReadsBoottime() {
        for _ in 0..<1_000 {
            let before = pb_clock_read_ns(pb_clock_boottime())
            let date = MonotonicDate()
            let after = pb_clock_read_ns(pb_clock_boottime())
            XCTAssertLessThanOrEqual(before, date.rawValue)
            XCTAssertLessThanOrEqual(date.rawValue, after)
        }
    }

    func testRealReadingsInProgramOrderNeverGoBack() {
        var previous = MonotonicDate()
        for _ in 0..<100_000 {
            let now = MonotonicDate()
            XCTAssertGreaterThanOrEqual(now, previous)
            XCTAssertNotNil(MonotonicDate.checkedDifference(now, previous))
            previous = now
        }
    }

    /// On the simulated clock set, under every named scenario (suspend included), durations
    /// measured through the boottime source — which subtracts with MonotonicDate's trapping `-` —
    /// never trap and are never negative; the same client on the wall clock goes negative under a
    /// backward step (where MonotonicDate's `-` would have trapped).
    func testNeverNegativeUnderAnyScenario() {
        for scenario in SkewScenario.catalogue {
            let observations = SimRunner.run(
                scenario: scenario,
                schedule: ClockSchedule(scenario: scenario),
                client: .durationMeter,
                source: .boottime,
                seed: 3
            )
            XCTAssertEqual(observations.first { $0.metric == "negative_durations" }?.value, 0, scenario.name)
        }
        let step = SkewScenario.named("step-minus-1h")!
        let wall = SimRunner.run(
            scenario: step,
            schedule: ClockSchedule(scenario: step),
            client: .durationMeter,
            source: .realtime,
            seed: 3
        )
        XCTAssertGreaterThan(wall.first { $0.metric == "negative_durations" }!.value, 0)
    }

    /// Suspend: Signal's clock counts the sleep, and so does its Linux twin; CLOCK_MONOTONIC_RAW
    /// (Linux) loses it.
    func testTheTwinCountsSuspendAndLinuxRawDoesNot() {
        let scenario = SkewScenario.named("suspend-10min")!
        let schedule = ClockSchedule(scenario: scenario)
        let start: Int64 = 30_000_000_000, end: Int64 = 700_000_000_000
        let boot = schedule.reading(.boottime, at: end) - schedule.reading(.boottime, at: start)
        let raw = schedule.reading(.monotonicRaw, at: end) - schedule.reading(.monotonicRaw, at: start)
        XCTAssertEqual(boot, end - start)
        XCTAssertEqual(raw, end - start - 600_000_000_000)
    }
}
