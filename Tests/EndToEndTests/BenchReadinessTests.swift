import Foundation
import Measurement
import Testing
import XCTest

/// bench-readiness as a user runs it: files, determinism for any --jobs, the live probes in child
/// processes, one-line errors.
final class BenchReadinessTests: XCTestCase {
    let bench = WorkloadTool("readiness")

    func testQuickRunWritesCSVAndJSONWithTheGlobalsColumn() throws {
        let doc = try bench.assertWritesItsFiles(
            ["--quick"],
            names: ["main-app, globals eager", "nse, globals lazy-once", "share-extension", "frame-aware", "signal-2021-lifo"]
        )
        XCTAssertEqual(Set(doc.records.map(\.variant)).count, 6)
        XCTAssertEqual(
            Set(doc.records.map(\.metric)),
            [
                "t_app_ready_ms", "t_ui_ready_ms", "ready_turn_ms", "polite_drain_ms", "main_max_stall_ms", "input_latency_p50_ms",
                "input_latency_p99_ms", "missed_frames", "overtakes", "polite_before_ui", "wasted_slots",
            ]
        )
    }

    func testDeterministicPerSeedAndForAnyJobs() throws {
        try bench.assertDeterministicForAnyJobs(["--seeds", "2", "--scenario", "main-app,nse"], otherSeed: "7")
    }

    func testShardsPartitionTheMatrix() throws {
        try bench.assertShardsPartition(["--quick", "--scenario", "nse"])
    }

    // The live probes (trap, deadlock) are BenchReadinessProbeTests and the live launch is
    // BenchReadinessLiveTests (Swift Testing, side by side).

    func testListAndBadInput() throws {
        let list = try ExecutableRunner.run("bench-readiness", ["--list"])
        XCTAssertEqual(list.status, 0)
        for name in ["main-app", "reentrant-tasks", "concurrent-first-use", "signal-2018", "intent-orchestrator", "lazy-registry"] {
            XCTAssertTrue(list.stdout.contains(name), name)
        }
        let cases = WorkloadTool.cases(
            """
            --scenario reentrant-tasks     | runs only with --mode live
            --scenario nope                | unknown --scenario 'nope'
            --variant fastest              | unknown --variant 'fastest'
            --globals lazy                 | unknown --globals 'lazy'
            --display-hz 0                 | --display-hz must be between 1 and 1000
            --input-rate nan               | The value 'nan' is invalid for '--input-rate <per-s>': not a decimal number
            --input-rate 1e999             | --input-rate must be between 0 and 1000
            --input-bound-ms -1            | --input-bound-ms
            --attempts 0                   | --attempts must be between 1 and 100
            --watchdog-s inf               | The value 'inf' is invalid for '--watchdog-s <watchdog-s>': not a decimal number
            --watchdog-s 1e999             | --watchdog-s must be between 0 and 600
            --mode fast                    | --mode
            --perfetto /tmp/x.pftrace --perfetto-window 5:1 | --perfetto-window
            """
        )
        try bench.assertOneLineErrors(cases, appending: ["--quick", "--quiet"])
    }

    /// `--list` labels every variant with its origin.
    func testListShowsOrigins() throws {
        let r = try ExecutableRunner.run("bench-readiness", ["--list"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for expected in [
            "[signal] Signal today", "[signal] Signal 2018", "[signal] Signal ~2021", "[article] the article's class",
            "[article] the lifecycle article", "[ours] ours: will/did",
        ] {
            XCTAssertTrue(r.stdout.contains(expected), expected)
        }
    }
}

/// A live launch on real threads: short, and asserting structure, never speed.
@Suite struct BenchReadinessLiveTests {
    /// Live mode launches beside the simulation and compares the two. Swift Testing, not XCTest
    /// (`swift test` within 180 s): the run mostly waits on real time, so it waits
    /// side by side with the other waiting tests (on a thread of its own, `onThread`).
    @Test func liveLaunchReportsLiveBesideSimulated() async throws {
        let run = try await WaitedRun(
            "bench-readiness",
            [
                "--mode", "live", "--quick", "--scenario", "main-app", "--variant", "signal,frame-aware", "--globals", "eager",
                "--input-rate", "4", "--quiet",
            ],
            document: "readiness.json"
        )
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.result.stdout.contains("live versus simulated"))
        let doc = try #require(run.document)
        #expect(Set(doc.records.map(\.mode)) == ["sim", "live"])
        #expect(doc.comparisons.filter { $0.metric == "t_ui_ready_ms" }.allSatisfy { $0.live > 0 && $0.sim > 0 })
    }
}
