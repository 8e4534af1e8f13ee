import XCTest
@testable import Timekeeping

final class MonotonicDateTests: XCTestCase {
    func testDurationIsNeverNegative() {
        let a = MonotonicDate(nanoseconds: 5_000)
        let b = MonotonicDate(nanoseconds: 9_000)
        XCTAssertEqual((b - a).nanoseconds, 4_000)
        XCTAssertEqual((a - b).nanoseconds, 0, "the wrong order clamps to zero instead of trapping")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let x = MonotonicDate(nanoseconds: UInt64.random(in: 0...UInt64.max, using: &rng))
            let y = MonotonicDate(nanoseconds: UInt64.random(in: 0...UInt64.max, using: &rng))
            XCTAssertEqual((x - y).nanoseconds, x > y ? x.rawValue - y.rawValue : 0)
        }
    }

    func testRealReadingsInProgramOrderNeverGoBack() {
        var previous = MonotonicDate()
        for _ in 0..<100_000 {
            let now = MonotonicDate()
            XCTAssertGreaterThanOrEqual(now, previous)
            XCTAssertGreaterThanOrEqual(Int64(clamping: (now - previous).nanoseconds), 0)
            previous = now
        }
    }

    func testAddingAndUnits() {
        let a = MonotonicDate(nanoseconds: 1_000)
        XCTAssertEqual((a.adding(1) - a).nanoseconds, 1_000_000_000)
        XCTAssertEqual(a.adding(-1).rawValue, 0, "moving before zero clamps")
        XCTAssertEqual(MonotonicDuration(nanoseconds: 123_456_789).milliseconds, 123)
        XCTAssertEqual(MonotonicDuration(milliseconds: 123).nanoseconds, 123_000_000)
    }

    /// On the simulated clock set, under every named scenario, durations measured through the
    /// monotonic-raw source (which uses MonotonicDate) are never negative.
    func testNeverNegativeUnderAnyScenario() {
        for scenario in SkewScenario.catalogue {
            let observations = SimRunner.run(scenario: scenario, schedule: ClockSchedule(scenario: scenario), client: .durationMeter, source: .monotonicRaw, seed: 3)
            XCTAssertEqual(observations.first { $0.metric == "negative_durations" }?.value, 0, scenario.name)
        }
    }
}
