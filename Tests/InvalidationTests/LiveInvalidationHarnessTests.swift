import Foundation
import Measurement
import Simulation
import XCTest

@testable import Invalidation

/// The live harness never leaves a child behind: not when a child fails, not when one hangs.
/// (The harness with the real binary in child roles is tested end to end in EndToEndTests.)
final class LiveInvalidationHarnessTests: XCTestCase {
    /// This process's children, from /proc (zombies included until they are reaped).
    func children() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var out = Set<String>()
        for t in tasks {
            let text = (try? String(contentsOfFile: "/proc/self/task/\(t)/children", encoding: .utf8)) ?? ""
            out.formUnion(text.split(separator: " ").map(String.init))
        }
        return out
    }

    var plan: InvalidationPlan {
        InvalidationPlan(
            durationNs: 200_000_000,
            keys: 8,
            writes: [.init(timeNs: 10_000_000, role: .nse, keys: [1])],
            mainReads: [.init(timeNs: 5_000_000, key: 1)]
        )
    }

    /// A run of Signal's variant on `plan` whose every child role runs `childCommand`.
    func harness(_ childCommand: [String], grace: SimDuration) -> LiveInvalidationRun {
        LiveInvalidationRun(variant: .signal, plan: plan, debounceInterval: .zero, childCommand: childCommand, grace: grace)
    }

    func testAFailingChildIsReportedAndEveryChildReaped() throws {
        let before = children()
        let run = harness(["/bin/sh", "-c", "exit 3", "sh"], grace: .seconds(1))
        XCTAssertThrowsError(try run.run()) { error in
            XCTAssertTrue("\(error)".contains("exited with status 3"), "\(error)")
        }
        XCTAssertEqual(children().subtracting(before), [])
    }

    func testAHangingChildIsKilledAtTheDeadline() throws {
        let before = children()
        let started = SystemMonotonicClock()
        let run = harness(["/bin/sh", "-c", "exec sleep 600", "sh"], grace: .milliseconds(200))
        XCTAssertThrowsError(try run.run()) { error in
            XCTAssertTrue("\(error)".contains("still running at the deadline"), "\(error)")
        }
        XCTAssertLessThan(started.now().seconds, 30)
        XCTAssertEqual(children().subtracting(before), [])
    }

    func testAMissingChildBinaryIsAOneLineError() {
        let run = harness(["/nonexistent/bench-invalidation"], grace: .seconds(1))
        XCTAssertThrowsError(try run.run()) { error in
            XCTAssertEqual((error as? BenchFailure)?.exitCode, 69)
        }
    }
}
