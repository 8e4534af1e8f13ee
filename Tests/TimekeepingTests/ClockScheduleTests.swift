import XCTest

@testable import Timekeeping

/// Each scenario must move each simulated clock exactly as the Linux kernel would. The expected
/// readings come from an independent model written as integrals over the events (not from
/// `ClockSchedule`'s segments), compared at every event boundary and on a grid.
final class ClockScheduleTests: XCTestCase {
    /// The kernel's rules, integrated directly: for a sample time t,
    /// raw  = ∫ (1 + drift) over time awake,
    /// mono = ∫ (1 + drift)(1 + slew) over time awake,
    /// boot = mono + time suspended,
    /// real = boot + Σ steps at or before t (+ the epoch difference).
    struct ReferenceModel {
        let events: [SkewEvent]

        func rates(at s: Double) -> (drift: Double, slew: Double, suspended: Bool) {
            var drift = 0.0, slew = 0.0, suspended = false
            for e in events {
                let end = e.kind == .drift && e.duration == 0 ? Double.infinity : e.end
                guard e.at <= s, s < end else { continue }
                switch e.kind {
                case .drift: drift = e.value * 1e-6
                case .slew: slew = e.value * 1e-6
                case .suspend: suspended = true
                case .step: break
                }
            }
            return (drift, slew, suspended)
        }

        func readings(at t: Double) -> (raw: Double, mono: Double, boot: Double, real: Double) {
            var cuts = Set([0.0, t])
            for e in events {
                for c in [e.at, e.end] where c > 0 && c < t { cuts.insert(c) }
            }
            let sorted = cuts.sorted()
            var raw = 0.0, mono = 0.0, asleep = 0.0
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                let r = rates(at: (a + b) / 2)
                if r.suspended {
                    asleep += b - a
                } else {
                    raw += (b - a) * (1 + r.drift)
                    mono += (b - a) * (1 + r.drift) * (1 + r.slew)
                }
            }
            let steps = events.filter { $0.kind == .step && $0.at <= t }.reduce(0) { $0 + $1.value }
            return (raw, mono, mono + asleep, mono + asleep + steps)
        }
    }

    func check(_ name: String, _ events: [SkewEvent], samples: [Double], file: StaticString = #filePath, line: UInt = #line) {
        let schedule = ClockSchedule(events: events)
        let model = ReferenceModel(events: events)
        let mono0 = Double(ClockSchedule.monotonicEpoch), real0 = Double(ClockSchedule.realtimeEpoch)
        for s in samples where s >= 0 {
            let t = Int64((s * 1e9).rounded())
            let e = model.readings(at: Double(t) / 1e9)
            // A few ns of rounding per segment, plus Double precision of the reference at 1e18.
            let slack = 64.0 + Double(events.count) * 4 + abs(e.real) * 1e-6
            func near(_ kind: ClockKind, _ expected: Double) {
                let got = Double(schedule.reading(kind, at: t))
                XCTAssertLessThanOrEqual(
                    abs(got - expected),
                    kind == .realtime ? max(slack, 512) : slack,
                    "\(name): \(kind.name) at \(s) s",
                    file: file,
                    line: line
                )
            }
            near(.monotonicRaw, mono0 + e.raw * 1e9)
            near(.monotonic, mono0 + e.mono * 1e9)
            near(.boottime, mono0 + e.boot * 1e9)
            near(.realtime, real0 + e.real * 1e9)
            // Date() is CLOCK_REALTIME through Double seconds: within a microsecond of it.
            XCTAssertLessThanOrEqual(
                abs(schedule.reading(.date, at: t) - schedule.reading(.realtime, at: t)),
                1_000,
                file: file,
                line: line
            )
        }
    }

    func samples(for scenario: SkewScenario) -> [Double] {
        var s: [Double] = stride(from: 0.0, through: scenario.duration, by: max(scenario.duration / 97, 0.001)).map { $0 }
        for e in scenario.events.prefix(50) {
            for c in [e.at, e.end] { s += [c - 0.001, c, c + 0.001, c + 0.5] }
        }
        return s
    }

    func testEveryNamedScenarioMatchesTheKernelModel() {
        for scenario in SkewScenario.catalogue {
            check(scenario.name, scenario.events, samples: samples(for: scenario))
        }
    }

    func testStepMovesOnlyTheWallClock() {
        let s = ClockSchedule(events: [.step(at: 10, by: -1)])
        let before = ClockKind.allCases.map { s.reading($0, at: 9_999_999_999) }
        let after = ClockKind.allCases.map { s.reading($0, at: 10_000_000_000) }
        for (i, kind) in ClockKind.allCases.enumerated() {
            let delta = after[i] - before[i]
            if kind.isWallClock {
                XCTAssertLessThan(abs(delta - (-1_000_000_000 + 1)), 300, kind.name)
            } else {
                XCTAssertEqual(delta, 1, kind.name)
            }
        }
    }

    func testSlewChangesEveryRateButRaw() {
        let s = ClockSchedule(events: [.slew(at: 0, ppm: 500, for: 100)])
        let t: Int64 = 100_000_000_000
        XCTAssertEqual(s.reading(.monotonicRaw, at: t) - ClockSchedule.monotonicEpoch, t)
        for kind in [ClockKind.monotonic, .boottime] {
            XCTAssertEqual(s.reading(kind, at: t) - ClockSchedule.monotonicEpoch, t + 50_000_000, kind.name)
        }
        XCTAssertEqual(s.reading(.realtime, at: t) - ClockSchedule.realtimeEpoch, t + 50_000_000)
        // After the slew the offset stays and the rate is back to 1.
        XCTAssertEqual(s.reading(.monotonic, at: 2 * t) - s.reading(.monotonic, at: t), t)
    }

    func testSuspendStopsMonotonicButNotBoottime() {
        let s = ClockSchedule(events: [.suspend(at: 10, for: 600)])
        let t: Int64 = 700_000_000_000
        XCTAssertEqual(s.reading(.monotonic, at: t) - ClockSchedule.monotonicEpoch, t - 600_000_000_000)
        XCTAssertEqual(s.reading(.monotonicRaw, at: t) - ClockSchedule.monotonicEpoch, t - 600_000_000_000)
        XCTAssertEqual(s.reading(.boottime, at: t) - ClockSchedule.monotonicEpoch, t)
        XCTAssertEqual(s.reading(.realtime, at: t) - ClockSchedule.realtimeEpoch, t)
        XCTAssertEqual(s.resume(20_000_000_000), 610_000_000_000)
    }

    func testDriftMovesEveryClockIncludingRaw() {
        let s = ClockSchedule(events: [.drift(ppm: 100)])
        let t: Int64 = 1_000_000_000_000
        for kind in [ClockKind.monotonicRaw, .monotonic, .boottime] {
            XCTAssertEqual(s.reading(kind, at: t) - ClockSchedule.monotonicEpoch, t + 100_000_000, kind.name)
        }
    }

    /// `crossing` is the inverse of `reading`: the first true time the clock reaches a value.
    func testCrossingIsTheFirstInstantTheClockReachesTheTarget() {
        var rng = SystemRandomNumberGenerator()
        for scenario in SkewScenario.catalogue {
            let s = ClockSchedule(scenario: scenario)
            let end = Int64(scenario.duration * 1e9)
            for kind in ClockKind.allCases {
                for _ in 0..<20 {
                    let from = Int64.random(in: 0..<end, using: &rng)
                    let target = s.reading(kind, at: from) + Int64.random(in: 1...30_000_000_000, using: &rng)
                    guard let c = s.crossing(kind, reaching: target, from: from, limit: .max / 4) else {
                        XCTFail("\(scenario.name) \(kind.name): no crossing")
                        continue
                    }
                    XCTAssertGreaterThanOrEqual(s.reading(kind, at: c), target, "\(scenario.name) \(kind.name)")
                    if c > from {
                        // Nothing in [from, c) reached it: check the instant before and a sample.
                        XCTAssertLessThan(s.reading(kind, at: c - 1), target, "\(scenario.name) \(kind.name)")
                    }
                }
            }
        }
    }
}
