import Foundation
import PropertyBased
import Simulation
import Testing

@testable import Timekeeping

/// Structure-aware property test of the skew reader and the clock schedule: files made of valid
/// fields, biased to the extremes (±1 000 000 ppm and a hair inside it, century-long spans, huge
/// steps, many suspends), checking that every file is either rejected with one located line or
/// runs every client without trapping or hanging, and that crossings are exact.
///
/// Brief in `swift test` (6 files, two clients); set PATTERNBENCH_FUZZ_ITERATIONS (e.g. 500) for a
/// longer run over every client, e.g. `PATTERNBENCH_FUZZ_ITERATIONS=500 swift test -c release
/// --filter SkewFuzzTests`.
@Suite struct SkewFuzzTests {
    static let requested = ProcessInfo.processInfo.environment["PATTERNBENCH_FUZZ_ITERATIONS"].flatMap(Int.init)
    static let iterations = requested ?? 6
    /// The brief default runs the two clients that arm timers; a long run runs all of them.
    static let clients: [ClientKind] = requested == nil ? [.timeout, .durationMeter] : ClientKind.allCases

    /// One event as drawn: kind, a magnitude class, a sign, two unit numbers for value and timing.
    struct Draw: Sendable, CustomStringConvertible {
        var kind: Int, magnitude: Int, negative: Bool, x: Double, y: Double, gap: Double
        var description: String { "(\(kind),\(magnitude),\(negative),\(x),\(y),\(gap))" }
    }

    static let draw = zip(
        Gen.int(in: 0...3),
        Gen.int(in: 0...5),
        Gen.bool,
        Gen.double(in: 0...1),
        Gen.double(in: 0...1),
        Gen.double(in: 0...1)
    ).map { Draw(kind: $0, magnitude: $1, negative: $2, x: $3, y: $4, gap: $5) }

    /// Valid fields from the draws, sorted by time, overlapping frequency corrections skipped.
    static func file(_ draws: [Draw]) -> String {
        let century = SkewEvent.maxSeconds
        var lines = ["at_s,kind,value,duration_s"]
        var t = 0.0, slewUntil = 0.0, driftUntil = 0.0, suspendUntil = 0.0
        func ppm(_ d: Draw) -> Double {
            let m: Double =
                switch d.magnitude {
                case 0: 1_000_000
                case 1: 999_999.9999
                case 2: 1_000_000 * (1 - d.x * 1e-9)
                case 3: 100_000 * d.x
                default: 500 * d.x
                }
            return d.negative ? -m : m
        }
        func span(_ d: Draw) -> Double {
            switch d.magnitude {
            case 0: century
            case 1: century * d.y
            case 2: 1e6 * d.y + 0.001
            default: 100 * d.y + 0.001
            }
        }
        for d in draws {
            t += d.magnitude < 2 ? century * d.gap * 0.2 : 30 * d.gap
            guard t <= century, t >= suspendUntil else { continue }
            switch d.kind {
            case 0:
                let seconds = d.magnitude == 0 ? century : (d.magnitude == 1 ? century * d.x + 1e-3 : 10 * d.x + 1e-3)
                lines.append("\(t),step,\(d.negative ? -seconds : seconds),")
            case 1 where t >= slewUntil:
                let s = span(d)
                lines.append("\(t),slew,\(ppm(d)),\(s)")
                slewUntil = t + s
            case 2 where t >= driftUntil:
                let s = d.y < 0.3 ? 0 : span(d)
                lines.append("\(t),drift,\(ppm(d)),\(s == 0 ? "" : "\(s)")")
                driftUntil = s == 0 ? .infinity : t + s
            case 3 where t >= slewUntil && t >= driftUntil:
                let s = span(d)
                lines.append("\(t),suspend,,\(s)")
                suspendUntil = t + s + 1e-3
            default: continue
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func validFieldsNeverTrapOrHang() async {
        await propertyCheck(count: Self.iterations, input: Self.draw.array(of: 1...10)) { draws in
            Self.check(file: Self.file(draws), clients: Self.clients)
        }
    }

    /// The property: a clean one-line rejection, or a run of every client on every clock in which
    /// every crossing is the first instant the clock reaches its target.
    static func check(file text: String, clients: [ClientKind] = ClientKind.allCases) {
        let events: [SkewEvent]
        do { events = try SkewFileReader.parse(text, path: "fuzz.csv") } catch {
            #expect(!error.description.contains("\n"), "\(error)")
            #expect(error.line != nil || error.message.contains("no events"), "\(error)")
            return
        }
        let scenario = SkewScenario.fromFile(name: "fuzz", events: events)
        let schedule = ClockSchedule(scenario: scenario)
        var rng = SeededGenerator(seed: text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
        let end = ClockSchedule.ns(scenario.duration)
        for kind in [ClockKind.monotonicRaw, .monotonic, .boottime, .realtime] {
            for _ in 0..<8 {
                let from = Int64(rng.nextUnit() * Double(end))
                let start = schedule.reading(kind, at: from)
                let target = start &+ Int64(rng.nextUnit() * 2e10)
                if let t = schedule.crossing(kind, reaching: target, from: from, limit: end) {
                    #expect(schedule.reading(kind, at: t) >= target)
                    // The first instant: exact where Double(d) is (t under 2^53 ns, 104 days).
                    // Beyond, rounding Double(d)·k wobbles a reading by a few ns, and on a clock
                    // slowed to 1e-9 of its rate a few ns of reading span seconds of true time:
                    // then no earlier instant may read clearly (64 ns) past the target.
                    if t <= 1 << 53 {
                        #expect(t == from || schedule.reading(kind, at: t - 1) < target, "\(kind) \(target) at \(t)")
                    } else {
                        for i in 0..<16 {
                            let p = from + (t - from) / 16 * Int64(i)
                            #expect(schedule.reading(kind, at: p) < target &+ 64, "\(kind) \(target) at \(t), earlier \(p)")
                        }
                    }
                }
            }
        }
        for client in clients {
            for kind in ClockKind.allCases {
                let o = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: kind, seed: 1)
                #expect(!o.isEmpty && o.allSatisfy { !$0.value.isNaN }, "\(client.name) \(kind.name)")
            }
        }
    }
}
