import Dispatch
import Simulation
import XCTest

@testable import Timekeeping

/// Whatever a valid skew file says — century-long slews, ±100-year steps, clocks stopped by
/// −1 000 000 ppm — every client on every clock runs to the end without trapping, in bounded time.
final class RobustnessTests: XCTestCase {
    func randomEvents(_ rng: inout SeededGenerator) -> [SkewEvent] {
        var events: [SkewEvent] = []
        var t = rng.nextUnit() * 100
        let count = Int(rng.nextInt(in: 1...12))
        var frequencyBusyUntil = 0.0
        for _ in 0..<count {
            let big = rng.nextUnit() < 0.2
            switch rng.nextInt(in: 0...3) {
            case 0:
                let magnitude = big ? SkewEvent.maxSeconds : 10 * rng.nextUnit() + 0.001
                events.append(.step(at: t, by: rng.nextUnit() < 0.5 ? -magnitude : magnitude))
                t += rng.nextUnit() * 30
            case 1 where t >= frequencyBusyUntil:
                let ppm = (big ? SkewEvent.maxPPM : 100_000 * rng.nextUnit()) * (rng.nextUnit() < 0.5 ? -1 : 1)
                let duration = big ? 1e9 * rng.nextUnit() + 1 : 60 * rng.nextUnit() + 0.1
                events.append(.slew(at: t, ppm: ppm, for: duration))
                frequencyBusyUntil = t + duration
                t += duration
            case 2:
                let duration = big ? 1e7 : 100 * rng.nextUnit() + 0.1
                events.append(.suspend(at: t, for: duration))
                t += duration + 0.001
            default:
                t += 5
            }
        }
        return events
    }

    func testRandomValidFilesNeverTrap() throws {
        var rng = SeededGenerator(seed: 2026)
        let rounds = (0..<8).map { _ in randomEvents(&rng) }
        // The rounds side by side (one core each, 2 s one after another in a debug
        // build); their events are drawn first, in order, so each round is the one it was.
        DispatchQueue.concurrentPerform(iterations: rounds.count) { round in
            let events = rounds[round]
            guard !events.isEmpty, ClockSchedule.conflict(in: events) == nil, events.allSatisfy({ $0.problem() == nil }) else { return }
            // Through the reader's text format too.
            let text =
                "at_s,kind,value,duration_s\n"
                + events.map { "\($0.at),\($0.kind.rawValue),\($0.value),\($0.duration)" }.joined(separator: "\n")
            let parsed: [SkewEvent]
            do throws(InputFileError) { parsed = try SkewFileReader.parse(text) } catch {
                // Fields in range whose sum is not (two +100-year steps): rejected before the run.
                XCTAssertTrue(error.message.contains("146 years"), error.description)
                return
            }
            let scenario = SkewScenario.fromFile(name: "random-\(round)", events: parsed)
            let activity = scenario.activeWindows.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
            XCTAssertLessThanOrEqual(activity, 28 * 120 + 900)
            let schedule = ClockSchedule(scenario: scenario)
            for client in ClientKind.allCases {
                for kind in ClockKind.allCases {
                    let o = SimRunner.run(scenario: scenario, schedule: schedule, client: client, source: kind, seed: UInt64(round))
                    XCTAssertFalse(o.isEmpty)
                    XCTAssertTrue(o.allSatisfy { !$0.value.isNaN }, "\(client.name) \(kind.name): \(o)")
                }
            }
        }
    }
}
