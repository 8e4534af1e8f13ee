import Foundation
import XCTest

/// bench-readiness on a recorded launch: Signal's coordinator and the others run the same blocks
/// from an xctrace export or a Perfetto trace, and a damaged trace is refused before anything runs.
final class BenchReadinessTraceTests: XCTestCase {
    let bench = WorkloadTool("readiness")

    func testARecordedLaunchRunsEveryCoordinatorAlikeFromBothFormats() throws {
        let args = ["--scenario", "main-app", "--globals", "lazy-once", "--seeds", "1"]
        let runs = try concurrently(
            ["launch.xml", "launch.perfetto-trace"].map { name in
                { try self.bench.csvValues(args + ["--trace", BenchThrottleTraceImportTests.fixture(name)]) }
            } + [{ try self.bench.csvValues(args) }]
        )
        XCTAssertFalse(runs[0].isEmpty)
        XCTAssertTrue(runs[0].contains { $0.contains(",signal,") }, "Signal's coordinator ran the recorded launch")
        XCTAssertEqual(runs[1], runs[0], "Perfetto against xctrace")
        XCTAssertNotEqual(runs[2], runs[0], "the control: the generated launch differs")
    }

    func testADamagedLaunchExits65() throws {
        let dir = try temporaryFolder("damaged-launch")
        var text = String(
            decoding: try Data(contentsOf: BenchThrottleTraceImportTests.fixtures.appendingPathComponent("launch.xml")),
            as: UTF8.self
        )
        text = String(text.prefix(text.utf8.count * 2 / 3))
        let path = dir.appendingPathComponent("cut.xml")
        try Data(text.utf8).write(to: path)
        let out = dir.appendingPathComponent("out")
        let r = try ExecutableRunner.run(
            "bench-readiness",
            ["--trace", path.path, "--scenario", "main-app", "--quiet", "--output", out.path]
        )
        XCTAssertEqual(r.status, 65, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("cut.xml: truncated XML"), r.stderr)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [], [])
    }
}
