import Foundation
import XCTest

/// `--differential` through the built tools: exit 0 when two variants agree, 1 with a
/// `differential.json` when they do not, `--replay-case` on that file, one-line refusals with
/// exit 64, and a user's variant compared exactly as a built-in is.
final class DifferentialEndToEndTests: XCTestCase {
    func testADivergenceExitsOneWritesTheFileAndReplays() throws {
        let folder = try temporaryFolder("differential-e2e").path
        let r = try ExecutableRunner.run("bench-throttle", ["--differential", "immediate,fixed-rate", "--cases", "20", "--output", folder])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("minimal size"), r.stdout)
        let path = folder + "/differential.json"
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        XCTAssertEqual(json["diverged"] as? Int, 20)
        XCTAssertEqual(try ExecutableRunner.run("bench-throttle", ["--replay-case", path]).status, 1)
        // Replayed with one variant twice, the case no longer diverges.
        XCTAssertEqual(
            try ExecutableRunner.run("bench-throttle", ["--replay-case", path, "--differential", "immediate,immediate"]).status,
            0
        )
        // Another workload's tool refuses the file in one line.
        let foreign = try ExecutableRunner.run("bench-cache", ["--replay-case", path])
        XCTAssertEqual(foreign.status, 64, foreign.stderr)
        XCTAssertEqual(foreign.stderr.split(separator: "\n").count, 1, foreign.stderr)
    }

    func testAgreementExitsZero() throws {
        let folder = try temporaryFolder("differential-e2e").path
        for (tool, pair) in [
            ("bench-cache", "lru,lru"), ("bench-readiness", "signal,signal"), ("bench-lifecycle", "signal,signal"),
            ("bench-group", "async-let,async-let"), ("bench-clock", "monotonic,monotonic"), ("bench-invalidation", "signal,signal"),
        ] {
            let r = try ExecutableRunner.run(tool, ["--differential", pair, "--cases", "10", "--output", folder + "/" + tool])
            XCTAssertEqual(r.status, 0, tool + r.stderr)
        }
    }

    func testBadRequestsAreOneLineExit64() throws {
        let folder = try temporaryFolder("differential-e2e").path
        for arguments in [
            ["--differential", "signal"], ["--differential", "signal,signal,signal"], ["--differential", "signal,nope"],
            ["--differential", "signal,signal", "--cases", "0"], ["--replay-case", folder + "/missing.json"],
        ] {
            let r = try ExecutableRunner.run("bench-readiness", arguments + ["--output", folder])
            XCTAssertEqual(r.status, 64, "\(arguments): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(arguments): \(r.stderr)")
        }
    }

    func testAUserVariantIsComparedLikeABuiltIn() throws {
        let folder = try temporaryFolder("differential-e2e").path
        let same = try ExecutableRunner.run(
            "suite-fixture",
            ["throttle", "--differential", "every-third,every-third", "--cases", "50", "--output", folder + "/a"]
        )
        XCTAssertEqual(same.status, 0, same.stderr)
        let other = try ExecutableRunner.run(
            "suite-fixture",
            ["throttle", "--differential", "every-third,immediate", "--cases", "50", "--output", folder + "/b"]
        )
        XCTAssertEqual(other.status, 1, other.stderr)
    }

    /// A user's variant that traps or hangs costs the comparison only: one line naming it, exit 70,
    /// no process left. The control: the same run with a user's variant that behaves is compared
    /// (above), so the child path passes exits through.
    func testAUserVariantThatTrapsOrHangsIsOneLineNotACrash() throws {
        let folder = try temporaryFolder("differential-e2e").path
        let trap = try ExecutableRunner.run(
            "suite-fixture",
            ["throttle", "--differential", "traps-on-tenth,immediate", "--cases", "20", "--output", folder + "/t"]
        )
        XCTAssertEqual(trap.status, 70, trap.stderr)
        XCTAssertTrue(trap.stderr.contains("traps-on-tenth trapped: killed by signal"), trap.stderr)
        XCTAssertEqual(trap.stderr.split(separator: "\n").count, 1, trap.stderr)
        let hang = try ExecutableRunner.run(
            "suite-fixture",
            ["throttle", "--differential", "immediate,hangs-on-first", "--cases", "5", "--item-timeout", "1", "--output", folder + "/h"]
        )
        XCTAssertEqual(hang.status, 70, hang.stderr)
        XCTAssertTrue(hang.stderr.contains("hangs-on-first hung: killed after the --item-timeout of 1 s"), hang.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/t/differential.json"))
    }
}
