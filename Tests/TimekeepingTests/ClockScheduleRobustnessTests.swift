import Simulation
import XCTest

@testable import Timekeeping

/// Regression tests for skew files that once failed: crossings that walked one nanosecond at a
/// time, Int64 overflows of combined events, and 100 000 suspends that took quadratic time.
final class ClockScheduleRobustnessTests: XCTestCase {
    let base = ClockSchedule.monotonicEpoch

    /// The first crossing by a plain scan, to check the bisection against.
    func scan(_ s: ClockSchedule, _ kind: ClockKind, _ target: Int64, from: Int64, limit: Int64) -> Int64? {
        var t = from
        while t <= limit {
            if s.reading(kind, at: t) >= target { return t }
            t += 1
        }
        return nil
    }

    func testCrossingIsExactOnOrdinaryRates() {
        let s = ClockSchedule(events: [
            .slew(at: 0.000_001, ppm: -333_333, for: 0.000_003), .drift(at: 0.000_004, ppm: 70_000, for: 0.000_002),
        ])
        for kind in [ClockKind.monotonic, .monotonicRaw, .boottime, .realtime] {
            let v0 = s.reading(kind, at: 0)
            for offset in stride(from: Int64(0), through: 7_000, by: 37) {
                XCTAssertEqual(
                    s.crossing(kind, reaching: v0 + offset, from: 0, limit: 8_000),
                    scan(s, kind, v0 + offset, from: 0, limit: 8_000),
                    "\(kind) +\(offset)"
                )
            }
        }
    }

    /// A rate of 1 − 1e-10 made the old code walk back from a wrong estimate one ns at a time:
    /// a one-line file never finished. Now a crossing is a bisection, exact and bounded.
    func testCrossingNearAStoppedClockIsSolvedNotWalked() {
        for ppm in [-999_999.9999, -999_999.999_999_9, -1_000_000] {
            let s = ClockSchedule(events: [.drift(ppm: ppm)])
            let year: Int64 = 365 * 86_400 * 1_000_000_000
            let target = base + 1_000
            let t = s.crossing(.monotonic, reaching: target, from: 0, limit: 200 * year)
            if ppm == -1_000_000 {
                XCTAssertNil(t, "a stopped clock never reaches a later reading")
                continue
            }
            guard let t else {
                XCTFail("\(ppm): no crossing")
                continue
            }
            XCTAssertGreaterThanOrEqual(s.reading(.monotonic, at: t), target)
            XCTAssertLessThan(s.reading(.monotonic, at: t - 1), target, "\(ppm): not the first instant")
        }
    }

    /// A stopped clock stepped past the target has reached it at the step (found by the long fuzz
    /// run: testing the segment's rate instead of its reading skipped it).
    func testAStoppedClockSteppedPastTheTargetHasReachedIt() {
        let s = ClockSchedule(events: [.drift(ppm: -1_000_000), .step(at: 10, by: 100)])
        let target = ClockSchedule.realtimeEpoch + 50_000_000_000
        XCTAssertEqual(s.crossing(.realtime, reaching: target, from: 0, limit: 1_000_000_000_000), 10_000_000_000)
        XCTAssertEqual(s.crossing(.realtime, reaching: target, from: 20_000_000_000, limit: 1_000_000_000_000), 20_000_000_000)
    }

    func events(_ text: String) -> InputFileError? {
        do {
            _ = try SkewFileReader.parse("at_s,kind,value,duration_s\n" + text, path: "s.csv")
            return nil
        } catch { return error }
    }

    /// Each field in range, the combination not: rejected before the run, naming the line.
    func testCombinationsThatOverflowAreRejectedWithTheLine() {
        let century = SkewEvent.maxSeconds
        let cases: [(String, Int, String)] = [
            ("1,step,\(century),\n2,step,\(century),\n", 3, "CLOCK_REALTIME"),
            ("1,step,-\(century),\n2,step,-\(century),\n3,step,-\(century),\n", 3, "CLOCK_REALTIME"),
            ("0,drift,1000000,\(century)\n", 2, "CLOCK_MONOTONIC_RAW"),
            ("0,drift,1000000,\(century)\n1,slew,1000000,\(century)\n", 3, "CLOCK_MONOTONIC_RAW"),
            ("0,drift,900000,\(century * 0.6)\n\(century * 0.6 + 1),drift,900000,\(century * 0.6)\n", 3, "CLOCK_MONOTONIC_RAW"),
            ("0,suspend,,\(century * 0.8)\n\(century * 0.8 + 1),suspend,,\(century)\n", 3, "CLOCK_BOOTTIME"),
        ]
        for (text, line, clock) in cases {
            guard let e = events(text) else {
                XCTFail("accepted: \(text)")
                continue
            }
            XCTAssertEqual(e.line, line, text)
            XCTAssertTrue(e.message.contains(clock) && e.message.contains("146 years"), e.message)
            XCTAssertFalse(e.description.contains("\n"))
        }
        // Within the range: one century-long step each way, a doubled rate for 40 years.
        XCTAssertNil(events("1,step,\(century),\n2,step,-\(century),\n"))
        XCTAssertNil(events("0,drift,1000000,\(century * 0.4)\n"))
    }

    /// The arithmetic itself saturates rather than trapping or wrapping, for schedules built in
    /// code without the reader's check.
    func testClockArithmeticSaturates() {
        XCTAssertEqual(ClockSchedule.scaled(.max / 2, 3), .max)
        XCTAssertGreaterThan(ClockSchedule.scaled(.max, -0.5), 0)
        XCTAssertEqual(ClockSchedule.add(.max, 1), .max)
        XCTAssertEqual(ClockSchedule.add(.min, -1), .min)
        XCTAssertEqual(DateQuantization.nanoseconds(timeInterval: 1e300), .max)
        XCTAssertEqual(DateQuantization.nanoseconds(timeInterval: -1e300), .min)
        XCTAssertEqual(DateQuantization.nanoseconds(timeInterval: 9.2e9), .max, "past Int64 after adding the 1970→2001 offset")
        _ = DateQuantization.reading(realtimeNanoseconds: .min)
        _ = DateQuantization.reading(realtimeNanoseconds: .max)
        let century = SkewEvent.maxSeconds
        let s = ClockSchedule(events: [
            .step(at: 1, by: century), .step(at: 2, by: century), .step(at: 3, by: century), .drift(at: 4, ppm: 1e6),
        ])
        XCTAssertEqual(s.reading(.realtime, at: 5_000_000_000), .max)
        XCTAssertNotNil(s.rangeProblem(until: 10_000_000_000))
        _ = s.crossing(.date, reaching: .max, from: 0, limit: 10_000_000_000)
        _ = s.crossing(.realtime, reaching: .min, from: 0, limit: .max)
    }

    /// The sweep that cuts suspends out of the active windows, against the obvious definition.
    func testAwakeWindowsMatchTheDefinition() {
        var rng = SeededGenerator(seed: 5)
        var events: [SkewEvent] = []
        var t = 0.5
        for _ in 0..<400 {
            let d = rng.nextUnit() * 2 + 0.01
            events.append(.suspend(at: t, for: d))
            t += d + rng.nextUnit() * 3 + 0.001
        }
        let s = ClockSchedule(events: events)
        let windows: [ClosedRange<Double>] = [0...50, 40...300, 299...301, 900...950, 1200...1500]
        var expected: [Range<Int64>] = []
        for w in windows {
            var pieces = [ClockSchedule.ns(w.lowerBound)..<ClockSchedule.ns(w.upperBound)]
            for susp in s.suspensions {
                pieces = pieces.flatMap { p -> [Range<Int64>] in
                    guard p.overlaps(susp) else { return [p] }
                    return [p.lowerBound..<max(p.lowerBound, susp.lowerBound), min(p.upperBound, susp.upperBound)..<p.upperBound].filter {
                        !$0.isEmpty
                    }
                }
            }
            expected += pieces
        }
        XCTAssertEqual(s.awakeWindows(windows), expected)
        for probe in stride(from: Int64(0), to: 1_600_000_000_000, by: 97_777_777) {
            XCTAssertEqual(s.isSuspended(probe), s.suspensions.contains { $0.contains(probe) })
            XCTAssertEqual(s.resume(probe), s.suspensions.first { $0.contains(probe) }?.upperBound ?? probe)
        }
    }

    /// 50 000 suspends: parsed, scheduled and run (one client on one clock) in linear time. The
    /// old code took 65 s for the whole matrix; this asserts completion, the benchmark is in docs.
    func testManySuspendsRun() throws {
        var text = "at_s,kind,value,duration_s\n"
        for i in 0..<50_000 { text += "\(Double(i) * 0.02),suspend,,0.005\n" }
        let events = try SkewFileReader.parse(text, path: "many.csv")
        let scenario = SkewScenario.fromFile(name: "many", events: events)
        let schedule = ClockSchedule(scenario: scenario)
        XCTAssertEqual(schedule.suspensions.count, 50_000)
        let o = SimRunner.run(scenario: scenario, schedule: schedule, client: .timeout, source: .monotonic, seed: 1)
        XCTAssertFalse(o.isEmpty)
    }
}
