import Foundation
import XCTest

@testable import Records
@testable import Timelines

/// The bench-* binaries' output paths as a user passes them: a symlink, a FIFO with a reader,
/// /dev/stdout, a device that fails writes, and files inside a new `--output` folder.
final class OutputPathEndToEndTests: XCTestCase {
    func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// A run refused for its flags makes no output folder: before, every refused run left an empty
    /// `results/runs/<id>/` holding only its lock, and met another run's lock before its own flag
    /// error. Control: a run that is not refused makes its folder where the test looks.
    func testARefusedRunLeavesNoRunFolder() throws {
        let dir = try temporaryFolder("refused-run")
        let runs = dir.appendingPathComponent("results/runs")
        for args in [["--scenario", "bogus"], ["--quick", "--seeds", "0"], ["--quick", "--variant", "bogus"]] {
            let r = try ExecutableRunner.run("bench-throttle", args, cwd: dir)
            XCTAssertEqual(r.status, 64, "\(args): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: runs.path), "\(args) left \(runs.path)")
        }
        let ok = try ExecutableRunner.run("bench-throttle", ["--quick", "--scenario", "steady", "--quiet"], cwd: dir)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: runs.path).count, 1, "control: a run makes its folder")
    }

    /// The same for an input file that is missing or bad (bench-lifecycle's `--trace`, read when
    /// the workload is made, not by each item once the run has its folder).
    func testARunRefusedForItsInputFileLeavesNoRunFolder() throws {
        let dir = try temporaryFolder("refused-input")
        let runs = dir.appendingPathComponent("results/runs")
        try "100 background\n".write(to: dir.appendingPathComponent("bad.trace"), atomically: true, encoding: .utf8)
        try "0 launch\n500 background\n90000 kill\n".write(to: dir.appendingPathComponent("ok.trace"), atomically: true, encoding: .utf8)
        for (file, status) in [("missing.trace", Int32(66)), ("bad.trace", 65)] {
            let r = try ExecutableRunner.run("bench-lifecycle", ["--trace", file, "--quiet"], cwd: dir)
            XCTAssertEqual(r.status, status, "\(file): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: runs.path), "\(file) left \(runs.path)")
        }
        let ok = try ExecutableRunner.run("bench-lifecycle", ["--trace", "ok.trace", "--quiet"], cwd: dir)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: runs.path).count, 1, "control: a run makes its folder")
    }

    func testEventsThroughASymlinkKeepTheLink() throws {
        let dir = try temporaryFolder("symlink-events")
        let target = dir.appendingPathComponent("kept.csv").path
        let link = dir.appendingPathComponent("events.csv").path
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink(target, link), 0)
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--events", link, "--output", dir.appendingPathComponent("out").path, "--quiet"]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fileType(link), S_IFLNK)
        XCTAssertTrue(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("run_id,workload,"))
    }

    func testPerfettoIntoAFIFOReachesItsReader() throws {
        let dir = try temporaryFolder("fifo-perfetto")
        let fifo = dir.appendingPathComponent("trace.pftrace").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let count = ByteCount()
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            guard fd >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while case let n = read(fd, &buffer, buffer.count), n > 0 { count.add(n) }
            close(fd)
            count.finish()
        }
        reader.start()
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--perfetto", fifo, "--output", dir.appendingPathComponent("out").path, "--quiet"]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(count.waitFinished(seconds: 20))
        XCTAssertGreaterThan(count.value, 1000, "the reader got the trace")
        XCTAssertEqual(fileType(fifo), S_IFIFO)
    }

    func testEventsToStdoutStreamThere() throws {
        let dir = try temporaryFolder("stdout-events")
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--events", "/dev/stdout", "--output", dir.path, "--quiet", "--format", "csv"]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix(TimelineRecord.csvHeader(factorNames: []) + "\n"))
        XCTAssertEqual(fileType("/dev/stdout"), S_IFLNK)
    }

    /// A device of our own with /dev/full's numbers: exit 73 naming the path, the node kept.
    func testAFailedWriteExits73AndKeepsTheDevice() throws {
        let dir = try temporaryFolder("full-perfetto")
        let node = dir.appendingPathComponent("full").path
        var full = stat()
        guard stat("/dev/full", &full) == 0, mknod(node, S_IFCHR | 0o666, full.st_rdev) == 0 else {
            throw XCTSkip("mknod needs root (CAP_MKNOD)")
        }
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--perfetto", node, "--output", dir.appendingPathComponent("out").path, "--quiet"]
        )
        XCTAssertEqual(r.status, 73, r.stderr)
        XCTAssertEqual(r.stderr, "bench-throttle: error: cannot write \(node): \(String(cString: strerror(ENOSPC)))\n")
        XCTAssertEqual(fileType(node), S_IFCHR)
    }

    func testTimelinesInsideANewOutputFolderAreAccepted() throws {
        let dir = try temporaryFolder("new-output")
        let out = dir.appendingPathComponent("X").path
        let r = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--events", out + "/ev.csv", "--perfetto", out + "/t.pftrace", "--output", out, "--quiet"]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasPrefix(".") }.sorted(),
            ["ev.csv", "t.pftrace", "throttle.csv", "throttle.json"]
        )
        // Control: a folder that is not the new --output is still refused before the run.
        let other = dir.appendingPathComponent("Y").path
        let refused = try ExecutableRunner.run(
            "bench-throttle",
            ["--quick", "--events", other + "/ev.csv", "--output", dir.appendingPathComponent("Z").path, "--quiet"]
        )
        XCTAssertEqual(refused.status, 73)
        XCTAssertEqual(refused.stderr, "bench-throttle: error: --events \(other)/ev.csv: folder \(other) does not exist\n")
    }

    /// Every events row joins to its item's results rows through the factor columns; without them
    /// (the control: the columns before schema version 3) rows of different items merge.
    func testEventsRowsJoinTheirResultsRowsByFactors() throws {
        let dir = try temporaryFolder("events-factors")
        let r = try ExecutableRunner.run(
            "bench-atomics",
            [
                "--quick", "--threads", "1,2", "--scenario", "increment", "--variant", "pthread-mutex,atomic", "--cs-work",
                "0,50ns", "--events", dir.path + "/ev.csv", "--output", dir.path, "--quiet",
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        func rows(_ name: String) throws -> [[String: String]] {
            let lines = try String(contentsOfFile: dir.path + "/" + name, encoding: .utf8).split(separator: "\n")
            let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return lines.dropFirst().map { line in
                Dictionary(uniqueKeysWithValues: zip(header, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
            }
        }
        let doc = try RunDocument.decode(Data(contentsOf: dir.appendingPathComponent("atomics.json")))
        XCTAssertEqual(doc.schemaVersion, 3)
        let factors = doc.factorNames
        XCTAssertEqual(factors, ["threads", "cs_work_ns", "gap_work_ns"])
        let keys = ["run_id", "scenario", "variant", "mode", "seed", "repetition"]
        func key(_ row: [String: String], _ columns: [String]) -> [String] { columns.map { row[$0] ?? "?" } }
        let events = try rows("ev.csv")
        let results = Set(try rows("atomics.csv").map { key($0, keys + factors) })
        let eventItems = Set(events.map { key($0, keys + factors) })
        XCTAssertFalse(events.isEmpty)
        XCTAssertTrue(eventItems.isSubset(of: results), "\(eventItems.subtracting(results))")
        XCTAssertEqual(eventItems.count, 8, "2 variants x 2 thread counts x 2 cs-work values")
        XCTAssertEqual(Set(events.map { key($0, keys) }).count, 2, "control: without the factors the 8 items merge into 2")
        // The JSON types the numeric factors as the CSV reader does.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("atomics.json"))) as! [String: Any]
        let first = (json["records"] as! [[String: Any]])[0]["factors"] as! [String: Any]
        XCTAssertNotNil(first["threads"] as? Int)
        XCTAssertNotNil(first["cs_work_ns"] as? Int)
    }
}

/// Bytes the FIFO's reader got; `lock` guards both fields.
private final class ByteCount: @unchecked Sendable {
    private let lock = NSCondition()
    private var bytes = 0
    private var done = false
    var value: Int { lock.withLock { bytes } }
    func add(_ n: Int) { lock.withLock { bytes += n } }
    func finish() {
        lock.withLock {
            done = true
            lock.broadcast()
        }
    }
    func waitFinished(seconds: Double) -> Bool {
        lock.withLock {
            let deadline = Date().addingTimeInterval(seconds)
            while !done, lock.wait(until: deadline) {}
            return done
        }
    }
}
