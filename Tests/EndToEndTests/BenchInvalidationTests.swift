import Foundation
import Records
import XCTest

/// bench-invalidation as a user runs it: the default matrix against the committed baseline and
/// thresholds, --jobs independence, live mode with real processes, and bad input refused.
final class BenchInvalidationTests: XCTestCase {
    let bench = WorkloadTool("invalidation")

    func run(_ args: [String], in dir: URL, name: String) throws -> URL {
        let out = dir.appendingPathComponent(name)
        let r = try ExecutableRunner.run("bench-invalidation", ["--quiet", "--output", out.path] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    func rows(_ folder: URL) throws -> [String] {
        WorkloadTool.deterministicColumns(
            try String(contentsOf: folder.appendingPathComponent("invalidation.csv"), encoding: .utf8)
        )
    }

    /// The default run (shared with the gate's XCTest layer): every threshold of the workload
    /// holds (none skipped) and the values equal the committed baseline exactly; a changed model
    /// (slower deliveries) is caught by the deterministic baseline comparison.
    func testDefaultRunMatchesBaselineAndThresholds() throws {
        try bench.assertDefaultRunPassesAndAChangeIsCaught(atLeast: 8, change: ["--delivery-jitter-ms", "40"])
    }

    /// --jobs 1 gives the same rows as the default --jobs.
    func testTheDefaultRunIsTheSameForOneJob() throws {
        let dir = try temporaryFolder("invalidation-jobs")
        let a = dir.appendingPathComponent("a")
        try SharedRuns.copy(defaultOf: "invalidation", into: a)
        XCTAssertEqual(try rows(a), try rows(try run(["--jobs", "1"], in: dir, name: "b")))
    }

    // Live mode's real processes and their comparison with the simulation: BenchInvalidationLiveTests
    // (Swift Testing, side by side).

    /// SIGINT during a live item: the harness finishes the item in flight, reaps its children,
    /// writes a result marked incomplete and exits 130; no process of the run survives.
    func testInterruptedLiveRunReapsEveryChild() throws {
        let dir = try temporaryFolder("invalidation-sigint")
        let keep = dir.appendingPathComponent("live").path
        let process = Process()
        process.executableURL = ExecutableRunner.productsDirectory.appendingPathComponent("bench-invalidation")
        process.arguments = [
            "--mode", "live", "--duration", "1.5", "--debounce-s", "0.2", "--quiet",
            "--output", dir.appendingPathComponent("out").path, "--live-dir", keep,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The processes with this run's folder on their command line: the run and, once an item
        // is in flight, its children. SIGINT lands while one is (not after a guessed sleep).
        func processes() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }.filter { pid in
                let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
                return String(decoding: cmdline, as: UTF8.self).contains(keep)
            }
        }
        let deadline = Date().addingTimeInterval(120)
        while processes().count < 2, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(process.isRunning, "control: the run was still going when interrupted")
        process.interrupt()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("out/invalidation.json")))
        XCTAssertFalse(doc.complete)
        XCTAssertEqual(processes(), [], "no process anywhere still has this run's folder on its command line")
    }

    func testBadInputIsAOneLineError() throws {
        let cases = WorkloadTool.cases(
            """
            --variant signals              | unknown --variant 'signals'
            --scenario nope                | unknown --scenario 'nope'
            --duration 0                   | --duration must be
            --debounce-s=-1                | --debounce-s must be
            --cache-capacity 0             | --cache-capacity must be
            --live-dir /tmp/x              | --live-dir applies to --mode live only
            --mode live --delivery-jitter-ms 3 | --delivery-jitter-ms models the simulation
            --mode bogus                   | mode
            """
        )
        try bench.assertOneLineErrors(cases, appending: ["--quiet"], status: 64)
    }

    func testListShowsVariantsAndScenarios() throws {
        let r = try ExecutableRunner.run("bench-invalidation", ["--list"])
        XCTAssertEqual(r.status, 0)
        for name in ["signal", "signal-legacy", "no-invalidation", "change-log", "foreground", "background-pushes", "concurrent-writers"] {
            XCTAssertTrue(r.stdout.contains(name), name)
        }
    }
}
