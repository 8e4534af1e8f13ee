import Foundation
import Measurement
import XCTest

/// bench-lifecycle as a user runs it: files, determinism for any --jobs, --trace, one-line errors,
/// and the live kills on real storage with no child left behind.
final class BenchLifecycleTests: XCTestCase {
    let bench = WorkloadTool("lifecycle")

    func run(_ args: [String], environment: [String: String] = [:]) throws -> ExecutableRunner.Result {
        try ExecutableRunner.run("bench-lifecycle", args, environment: environment)
    }

    func testQuickRunWritesFilesWithOriginsAndDurability() throws {
        let doc = try bench.assertWritesItsFiles(
            ["--quick"],
            names: ["everyday", "memory-pressure", "scene-thrash", "slow-device", "crash-free %"]
        )
        XCTAssertEqual(
            Dictionary(doc.records.map { ($0.variant, $0.origin) }, uniquingKeysWith: { a, _ in a }),
            [
                "naive": "reference", "article": "article", "signal": "signal", "ours": "ours",
            ]
        )
    }

    /// The default run (shared with the gate's XCTest layer): every lifecycle threshold holds (none
    /// skipped) and the values equal the committed baseline exactly; a changed model (slower saves)
    /// is caught by the baseline.
    func testDefaultRunMatchesBaselineAndThresholds() throws {
        try bench.assertDefaultRunPassesAndAChangeIsCaught(atLeast: 12, change: ["--save-ms", "120"])
    }

    /// A user's executable offers the workload: `my-bench lifecycle` is bench-lifecycle, live child included.
    func testSuiteMainOffersLifecycle() throws {
        let list = try ExecutableRunner.run("suite-fixture", ["lifecycle", "--list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("[signal]") && list.stdout.contains("[reference]") && list.stdout.contains("kill"), list.stdout)
        let dir = try temporaryFolder("lifecycle-suite")
        let live = try ExecutableRunner.run(
            "suite-fixture",
            [
                "lifecycle", "--mode", "live", "--variant", "ours", "--scenario", "everyday", "--sessions", "3", "--kills", "2", "--quiet",
                "--output", dir.path,
            ]
        )
        XCTAssertEqual(live.status, 0, live.stderr)
        XCTAssertTrue(live.stdout.contains("sqlite-wal"), live.stdout)
    }

    func testDeterministicPerSeedAndForAnyJobs() throws {
        try bench.assertDeterministicForAnyJobs(
            ["--seeds", "2", "--sessions", "30", "--scenario", "slow-device,scene-thrash"],
            otherSeed: "9"
        )
    }

    func testTraceReplaysAndBadTracesAreOneLine() throws {
        let dir = try temporaryFolder("lifecycle-trace")
        let good = dir.appendingPathComponent("good.trace")
        try "0 launch\n500 active\n9000 edit\n20000 inactive\n20200 background\n25000 kill\n".write(
            to: good,
            atomically: true,
            encoding: .utf8
        )
        let ok = try bench.csvValues(["--trace", good.path, "--variant", "signal"])
        XCTAssertTrue(ok.contains { $0.contains(",trace,signal,") && $0.contains("acked_changes,1.0,") }, ok.joined(separator: "\n"))
        let bad = dir.appendingPathComponent("bad.trace")
        try "0 launch\n10 active\n20 sleep\n".write(to: bad, atomically: true, encoding: .utf8)
        let r = try run(["--trace", bad.path, "--output", dir.path])
        XCTAssertEqual(r.status, 65)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("bad.trace:3: unknown transition 'sleep'"), r.stderr)
    }

    func testBadFlagsAreOneLineUsageErrors() throws {
        let cases = WorkloadTool.cases(
            """
            --sessions 0                   | --sessions
            --bg-task-s -1                 | --bg-task-s
            --bg-limit-mb nan              | --bg-limit-mb
            --sync-failure 2               | --sync-failure
            --kills 5                      | --kills applies to --mode live only
            --scenario trace               | --scenario trace needs --trace
            --variant nope                 | nope
            --mode live --trace /dev/null  | --mode sim only
            """
        )
        // The cases side by side, each naming a folder of its own.
        let dir = try temporaryFolder("lifecycle-bad")
        let runs = try concurrently(
            cases.indices.map { i in { try self.run(cases[i].0 + ["--output", dir.appendingPathComponent("never-\(i)").path]) } }
        )
        for ((args, expected), r) in zip(cases, runs) {
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(expected), "\(args): \(r.stderr)")
            XCTAssertEqual(
                r.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage") && !$0.isEmpty && !$0.hasPrefix("  See") }.count,
                1,
                "\(args): \(r.stderr)"
            )
        }
        let missing = try run(["--trace", "/nonexistent/x.trace"])
        XCTAssertEqual(missing.status, 66, missing.stderr)
    }

    /// A real child process killed at random instants inside its saves: the in-place strategy
    /// tears its state (the guarantee shown violable); the atomic ones never do. No child of the
    /// run survives it.
    func testLiveKillsTearOnlyInPlaceAndLeaveNoProcess() throws {
        let dir = try temporaryFolder("lifecycle-live")
        let mark = RunMark()
        let r = try run(
            [
                "--mode", "live", "--variant", "signal", "--scenario", "everyday", "--sessions", "5", "--kills", "6", "--quiet", "--format",
                "csv",
                "--output", dir.path, "--events", dir.appendingPathComponent("events.csv").path,
            ],
            environment: mark.environment
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        // The live timeline's kills are the metric's.
        let events = try String(contentsOf: dir.appendingPathComponent("events.csv"), encoding: .utf8).split(separator: "\n")
        // Five live items: the run's variant (`signal`) and the four durability strategies.
        XCTAssertEqual(events.filter { $0.contains(",live,") && $0.contains(",SIGKILL,") }.count, 5 * 6)

        func value(_ durability: String, _ metric: String) -> Double {
            r.stdout.split(separator: "\n").filter { $0.contains(",kill-during-save,\(durability),") && $0.contains(",\(metric),") }
                .compactMap { Double($0.split(separator: ",", omittingEmptySubsequences: false)[10]) }.reduce(0, +)
        }
        let suspended = ["signal", "in-place", "rename", "rename-fsync", "sqlite-wal"].map { value($0, "suspended_kills") }.reduce(0, +)
        XCTAssertEqual(Double(events.filter { $0.contains(",live,") && $0.contains(",SIGSTOP,") }.count), suspended)
        XCTAssertGreaterThanOrEqual(value("in-place", "corrupt_launches"), 1, r.stdout)
        for d in ["signal", "rename", "rename-fsync", "sqlite-wal"] {
            XCTAssertEqual(value(d, "kills"), 6, d)
            XCTAssertEqual(value(d, "corrupt_launches"), 0, d)
            XCTAssertEqual(value(d, "acked_lost"), 0, d)
            XCTAssertGreaterThan(value(d, "kills_inside_save"), 0, d)
        }
        // No process is left behind: none of this run's lifecycle children runs any more.
        XCTAssertEqual(
            mark.processes(commandLineContaining: ["--lifecycle-child", "pb-lifecycle-"]),
            [],
            "lifecycle children still running"
        )
    }
}
