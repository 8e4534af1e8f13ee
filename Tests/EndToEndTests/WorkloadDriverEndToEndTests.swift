import Foundation
import Records
import XCTest

/// What the one driver guarantees for every bench-*: `--jobs` changes nothing but speed, an
/// interrupted run leaves a consistent, marked-incomplete pair, a folder has one writer at a time.
final class WorkloadDriverEndToEndTests: XCTestCase {
    /// The records of a results file without the run id (which differs between runs by design).
    func records(_ folder: URL, _ workload: String) throws -> [ResultRecord] {
        try RunDocument.decode(Data(contentsOf: folder.appendingPathComponent("\(workload).json"))).records.map { r in
            var copy = r
            copy.runID = ""
            return copy
        }
    }

    func testJobsDoNotChangeVirtualTimeResults() throws {
        let dir = try temporaryFolder("jobs")
        for (tool, workload, extra) in [
            ("bench-throttle", "throttle", ["--quick", "--seeds", "2"]),
            ("bench-clock", "clock", ["--quick", "--no-read-cost"]),
        ] {
            // The three runs side by side (`swift test` within 180 s): `--jobs 1` alone
            // leaves a core idle.
            let jobs = ["1", "2", "5"]
            let outputs = try concurrently(
                jobs.indices.map { i in
                    {
                        let out = dir.appendingPathComponent("\(workload)-\(jobs[i])")
                        let r = try ExecutableRunner.run(tool, extra + ["--jobs", jobs[i], "--quiet", "--output", out.path])
                        XCTAssertEqual(r.status, 0, r.stderr)
                        return try self.records(out, workload)
                    }
                }
            )
            XCTAssertFalse(outputs[0].isEmpty)
            XCTAssertEqual(outputs[0], outputs[1], "\(tool): --jobs 2 differs from --jobs 1")
            XCTAssertEqual(outputs[0], outputs[2], "\(tool): --jobs 5 differs from --jobs 1")
        }
    }

    func testBadJobsIsAOneLineUsageError() throws {
        for bad in ["0", "-1", "257", "many"] {
            let r = try ExecutableRunner.run("bench-throttle", ["--jobs", bad])
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("--jobs"), r.stderr)
        }
    }

    /// SIGINT and SIGTERM mid-run: the items that finished are written, marked incomplete, with
    /// one line on stderr and the conventional exit status; the CSV and the JSON agree.
    func testAnInterruptedRunWritesWhatFinishedMarkedIncomplete() throws {
        let dir = try temporaryFolder("interrupt")
        // The two signals' runs side by side: each waits 1.5 s for its signal.
        _ = try concurrently(
            [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { signal, status in { try self.checkInterrupted(signal, status, in: dir) } }
        )
    }

    func checkInterrupted(_ signal: Int32, _ status: Int32, in dir: URL) throws {
        let out = dir.appendingPathComponent("run-\(signal)")
        // About 30 items of ~0.3 s each, one at a time: the signal lands in the middle.
        let r = try ExecutableRunner.run(
            "bench-atomics",
            [
                "--scenario", "increment", "--variant", "atomic", "--threads", "1", "--cs-work", "0,50ns,500ns",
                "--gap-work", "0,50ns,1us", "--seeds", "2", "--duration", "0.1", "--warmup", "0", "--probe-duration", "0",
                "--jobs", "1", "--output", out.path,
            ],
            signal: (signal, 1.5)
        )
        XCTAssertEqual(r.status, status, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("interrupted") }
        XCTAssertEqual(lines.count, 1, r.stderr)
        let document = try RunDocument.decode(Data(contentsOf: out.appendingPathComponent("atomics.json")))
        XCTAssertFalse(document.complete)
        let planned = try XCTUnwrap(document.plannedItems), completed = try XCTUnwrap(document.completedItems)
        XCTAssertEqual(planned, 9)
        XCTAssertGreaterThan(completed, 0)
        XCTAssertLessThan(completed, planned)
        XCTAssertTrue(document.notes.first?.hasPrefix("INCOMPLETE") == true, "\(document.notes)")
        let csv = try String(contentsOf: out.appendingPathComponent("atomics.csv"), encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\n").count - 1, document.records.count, "the CSV and the JSON disagree")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [])
    }

    func testEventsPointingAtAFolderFailsBeforeTheRun() throws {
        let dir = try temporaryFolder("events")
        let r = try ExecutableRunner.run("bench-throttle", ["--events", dir.path, "--output", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertTrue(r.stderr.contains("is a folder"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/throttle.json").path))
        // Every bench-* has a timeline now (bench-atomics the last): none is left to show
        // "--events: bench-X writes no timeline".
    }
}
