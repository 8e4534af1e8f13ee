import Foundation
import XCTest

/// bench-throttle replaying Instruments and Perfetto traces: the same commit stream in the three
/// formats gives the same results, and each damaged trace is refused with one line, exit 65,
/// and nothing written.
final class BenchThrottleTraceImportTests: XCTestCase {
    let bench = WorkloadTool("throttle")
    static let fixtures = WorkloadTool.packageRoot.appendingPathComponent("Tests/TraceImportTests/Fixtures")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    func testTheThreeFormatsOfOneStreamGiveIdenticalResults() throws {
        let args = ["--device", "slow", "--variant", "immediate,frame-budget,signal-last-only"]
        let runs = try concurrently(
            ["stream.csv", "stream.xml", "stream.perfetto-trace"].map { name in
                { try self.bench.csvValues(args + ["--trace", Self.fixture(name)]) }
            }
        )
        XCTAssertFalse(runs[0].isEmpty)
        XCTAssertTrue(runs[0].contains { $0.contains("trace-stream-slow") })
        XCTAssertEqual(runs[1], runs[0], "xctrace XML against CSV")
        XCTAssertEqual(runs[2], runs[0], "Perfetto against CSV")
        // The control: another process of the same trace is another stream, and the comparison sees it.
        let other = try bench.csvValues(args + ["--trace", Self.fixture("stream.xml"), "--trace-process", "SpringBoard"])
        XCTAssertNotEqual(other, runs[0])
    }

    func testDamagedTracesExit65WithOneLineAndWriteNothing() throws {
        let dir = try temporaryFolder("damaged-traces")
        func copy(_ name: String, to newName: String, _ edit: (inout String) -> Void) throws -> String {
            var text = String(decoding: try Data(contentsOf: Self.fixtures.appendingPathComponent(name)), as: UTF8.self)
            edit(&text)
            let url = dir.appendingPathComponent(newName)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let truncatedXML = try copy("stream.xml", to: "truncated.xml") { $0 = String($0.prefix($0.utf8.count / 2)) }
        let unknownRef = try copy("stream.xml", to: "unknown-ref.xml") {
            $0 = $0.replacingOccurrences(of: "<process ref=\"4\"/>", with: "<process ref=\"987654\"/>")
        }
        let shortRow = try copy("stream.xml", to: "short-row.xml") {
            if let r = $0.range(of: "<sentinel/>") { $0.replaceSubrange(r, with: "") }
        }
        var packets = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent("stream.perfetto-trace")))
        packets.removeLast(5)
        let truncatedProtobuf = dir.appendingPathComponent("truncated.perfetto-trace")
        try Data(packets).write(to: truncatedProtobuf)
        let cases: [([String], String)] = [
            (["--trace", truncatedXML], "truncated.xml: truncated XML"),
            (["--trace", unknownRef], "unknown-ref.xml: row 1: ref=\"987654\" names no earlier id"),
            (["--trace", shortRow], "short-row.xml: row 1 has 9 cells, its schema 10 columns"),
            (["--trace", truncatedProtobuf.path], "truncated.perfetto-trace: truncated protobuf"),
            (["--trace", Self.fixture("stream.xml"), "--trace-signpost", "draw"], "stream.xml: no 'draw' signposts"),
            (["--trace", Self.fixture("stream.perfetto-trace"), "--trace-process", "Mail"], "no 'commit' signposts in process 'Mail'"),
        ]
        for (args, expected) in cases {
            let out = dir.appendingPathComponent("out-\(UUID().uuidString)")
            let r = try ExecutableRunner.run("bench-throttle", args + ["--quiet", "--output", out.path])
            XCTAssertEqual(r.status, 65, "\(args): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(expected), "expected '\(expected)' in: \(r.stderr)")
            let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
            XCTAssertEqual(written, [], "nothing written for \(args)")
        }
        // Signpost options with a CSV would be ignored: refused as a usage error instead.
        let csv = try ExecutableRunner.run(
            "bench-throttle",
            ["--trace", Self.fixture("stream.csv"), "--trace-process", "Signal", "--quiet"]
        )
        XCTAssertEqual(csv.status, 64, csv.stderr)
        XCTAssertTrue(csv.stderr.contains("stream.csv is a CSV"), csv.stderr)
        // The control: the intact files run and write their results.
        for name in ["stream.xml", "stream.perfetto-trace"] {
            let out = dir.appendingPathComponent("intact-\(name)")
            let r = try ExecutableRunner.run(
                "bench-throttle",
                ["--trace", Self.fixture(name), "--variant", "immediate", "--quiet", "--output", out.path]
            )
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("throttle.csv").path))
        }
    }
}
