import Foundation
import Records
import XCTest

/// bench-group as a user runs it: files, determinism for any --jobs, shards, live beside sim, the
/// timeline, one-line errors.
final class BenchGroupTests: XCTestCase {
    let bench = WorkloadTool("group")

    func testQuickRunWritesCSVAndJSONWithOrigins() throws {
        let doc = try bench.assertWritesItsFiles(
            ["--quick", "--flows", "30"],
            names: ["group-wait-main", "signal-when-fulfilled", "login-per-movie", "hedged"]
        )
        XCTAssertEqual(Set(doc.records.map(\.variant)).count, 9)
        XCTAssertEqual(Set(doc.records.map(\.origin)), ["article", "platform", "signal", "ours"])
        XCTAssertTrue(doc.records.contains { $0.variant == "group-wait-main" && $0.metric == "missed_frames" && $0.value > 0 })
    }

    /// The default run (shared with the gate's XCTest layer): every group threshold holds (none
    /// skipped) and the values equal the baseline slice; a changed model (more flows) is caught by
    /// the baseline comparison.
    func testThresholdsHoldAndTheBaselineMatches() throws {
        try bench.assertDefaultRunPassesAndAChangeIsCaught(atLeast: 8, change: ["--flows", "301"])
    }

    func testDeterministicPerSeedAndForAnyJobs() throws {
        try bench.assertDeterministicForAnyJobs(
            ["--seeds", "2", "--flows", "40", "--scenario", "flaky,login-per-movie"],
            otherSeed: "7"
        )
    }

    func testShardsPartitionTheMatrix() throws {
        try bench.assertShardsPartition(["--quick", "--flows", "20", "--scenario", "login"])
    }

    /// Live: real primitives beside the simulation of the same draws, and the per-child overhead.
    func testLiveRunsBesideTheSimulation() throws {
        let dir = try temporaryFolder("group-live")
        let r = try ExecutableRunner.run(
            "bench-group",
            [
                "--mode", "live", "--scenario", "login,child-overhead", "--variant",
                "group-notify,task-group,group-wait-main,signal-when-fulfilled",
                "--flows", "4", "--time-scale", "0.02", "--children", "50", "--seeds", "1", "--quiet", "--output", dir.path,
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("live vs sim"), r.stdout)
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("group.json")))
        XCTAssertTrue(doc.records.allSatisfy { $0.mode == "live" })
        XCTAssertEqual(doc.records.filter { $0.metric == "calls_per_flow" }.count, 4)
        XCTAssertTrue(
            doc.records.contains {
                $0.variant == "task-group-child" && $0.metric == "overhead_cpu_ns_per_child" && $0.origin == "reference"
            }
        )
        XCTAssertTrue(doc.records.contains { $0.variant == "group-wait-main" && $0.metric == "main_blocked_ms" && $0.value > 0 })
        XCTAssertFalse(doc.comparisons.isEmpty)
    }

    /// The timeline has the tracks and its counts are the run's metrics.
    func testTimelineCountsAreTheMetrics() throws {
        let dir = try temporaryFolder("group-events")
        let events = dir.appendingPathComponent("events.csv").path
        let r = try ExecutableRunner.run(
            "bench-group",
            [
                "--scenario", "flaky", "--variant", "group-wait-main", "--flows", "10", "--seeds", "1", "--events", events, "--quiet",
                "--output", dir.path,
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("group.json")))
        let missed = doc.records.first { $0.metric == "missed_frames" }!.value
        XCTAssertEqual(Double(rows.filter { $0.contains(",missed frame,") }.count), missed)
        XCTAssertGreaterThan(missed, 0)
        XCTAssertTrue(rows.contains { $0.contains(",blocked in group.wait,") })
    }

    func testBadInputIsOneLine() throws {
        let cases = WorkloadTool.cases(
            """
            --variant fastest              | unknown --variant 'fastest'
            --scenario child-overhead      | --scenario child-overhead runs in --mode live only
            --flows 0                      | --flows must be between 1 and 100000
            --time-scale 0.5               | --time-scale applies to --mode live only
            --children 10                  | --children applies to --mode live only
            --mode live --time-scale 2     | --time-scale must be between 0.01 and 1
            --mode live --flows 5000       | --flows must be at most 1000 in --mode live
            --mode live --children 0       | --children must be between 1 and 1000000
            --time-scale nan               | not a decimal number
            --mode fast                    | --mode
            """
        )
        try bench.assertOneLineErrors(cases, appending: ["--quick", "--quiet"], status: 64)
    }

    /// A user's executable (`SuiteMain`) offers `group` with the user's shape registered on
    /// `Suite.fanOuts`: listed as [user], run in virtual time beside the suite's, and live (in a
    /// child process) on the primitive its shape implies.
    func testAUsersShapeRunsThroughSuiteMain() throws {
        let list = try ExecutableRunner.run("suite-fixture", ["group", "--list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("[user] DispatchGroup notify, calls hedged"), list.stdout)
        let dir = try temporaryFolder("group-user")
        let sim = try ExecutableRunner.run(
            "suite-fixture",
            [
                "group", "--scenario", "heavy-tail", "--variant", "hedged-notify,group-notify", "--flows", "100", "--seeds", "1", "--quiet",
                "--output", dir.appendingPathComponent("sim").path,
            ]
        )
        XCTAssertEqual(sim.status, 0, sim.stderr)
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("sim/group.json")))
        func value(_ variant: String, _ metric: String) -> Double {
            doc.records.first { $0.variant == variant && $0.metric == metric }!.value
        }
        XCTAssertEqual(doc.records.first { $0.variant == "hedged-notify" }?.origin, "user")
        XCTAssertGreaterThan(value("hedged-notify", "calls_per_flow"), value("group-notify", "calls_per_flow"))
        XCTAssertLessThan(value("hedged-notify", "latency_p99_ms"), value("group-notify", "latency_p99_ms"))
        let live = try ExecutableRunner.run(
            "suite-fixture",
            [
                "group", "--mode", "live", "--scenario", "login", "--variant", "hedged-notify", "--flows", "4", "--time-scale", "0.02",
                "--seeds", "1", "--quiet", "--output", dir.appendingPathComponent("live").path,
            ]
        )
        XCTAssertEqual(live.status, 0, live.stderr)
    }

    func testListShowsOrigins() throws {
        let r = try ExecutableRunner.run("bench-group", ["--list"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for expected in [
            "[article] ANTI-PATTERN", "[platform] withThrowingTaskGroup", "[signal] Promise.when", "[ours] task group", "child-overhead",
        ] {
            XCTAssertTrue(r.stdout.contains(expected), expected)
        }
    }
}
