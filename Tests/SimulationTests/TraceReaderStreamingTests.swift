import Foundation
import XCTest

@testable import Simulation

/// The trace reader streams: garbage is rejected at its first bad line after reading at most a
/// buffer of it, numbers are plain decimals only, error lines are short and safe, gzip is read
/// directly, and a replay streams the file again (checking it did not change).
final class TraceReaderStreamingTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trace-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }

    func error(_ body: () throws -> Void) -> InputFileError? {
        do { try body() } catch let e as InputFileError { return e } catch { XCTFail("\(error)") }
        return nil
    }

    func testLooseNumbersAreRejected() throws {
        let cases: [(String, String)] = [
            ("5\u{0}junk,1", "time_ms: '5\\0junk' is not a number"),
            ("0x10,1", "time_ms: '0x10' is not a number"),
            ("1,0x10", "rows: '0x10' is not a whole number"),
            ("1,5\u{0}", "rows: '5\\0' is not a whole number"),
            ("0x1p3,1", "is not a number"),
            ("5 6,1", "is not a number"),
            (",1", "time_ms: '' is not a number"),
            ("1,", "rows: '' is not a whole number"),
            ("inf,1", "must be a finite number ≥ 0, got inf"),
            ("1,1.5", "rows: '1.5' is not a whole number"),
            ("1,99999999999", "is not a whole number"),
        ]
        for (line, expected) in cases {
            let e = error { _ = try TraceReader.parse("time_ms,rows\n" + line + "\n", path: "t.csv") }
            XCTAssertEqual(e?.line, 2, line)
            XCTAssertTrue(e?.description.contains(expected) == true, "\(line.debugDescription) → \(e?.description ?? "accepted")")
        }
        // What the format documents still reads, with the values strtod gives.
        let ok = try TraceReader.parse("time_ms,rows\n  0 , 3 \n12.5,1\n1e3,2\n1000.0000000000001,+4\n")
        XCTAssertEqual(ok.map(\.time.nanoseconds), [0, 12_500_000, 1_000_000_000, 1_000_000_000])
        XCTAssertEqual(ok.map(\.rows), [3, 1, 2, 4])
    }

    func testStrictDecimalAgreesWithStrtod() {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<20_000 {
            let digits = Int(rng.nextInt(in: 1...17))
            let x = rng.nextUnit() * DeterministicMath.pow(10, Double(rng.nextInt(in: 0...12)))
            let text = String(format: "%.\(digits)g", x)
            XCTAssertEqual(StrictNumber.decimal(text), Double(text), text)
            let fixed = String(format: "%.\(digits % 10)f", x)
            XCTAssertEqual(StrictNumber.decimal(fixed), Double(fixed), fixed)
        }
    }

    /// A gigabyte without a line break (a sparse file: no disk used) is rejected after one buffer.
    func testHugeGarbageFileIsRejectedAtOnce() throws {
        let path = try file("garbage.csv", "time_ms,rows\n")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let stream = try LineStream(path: path)
        var e: InputFileError?
        do { while try stream.next() != nil {} } catch { e = error }
        XCTAssertEqual(e?.line, 2)
        XCTAssertTrue(e?.message.contains("longer than 4096 bytes") == true, "\(String(describing: e))")
        XCTAssertLessThanOrEqual(stream.byteCount, 1 << 20, "read far more than a buffer of garbage")
        // Through the reader, and random bytes with line breaks: the header line names it.
        XCTAssertEqual(error { _ = try TraceReader.open(path: path) }?.line, 2)
        var rng = SeededGenerator(seed: 3)
        let random = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let e2 = error { _ = try TraceReader.open(path: try file("random.bin", random)) }
        XCTAssertNotNil(e2?.line)
    }

    func testErrorLinesAreCappedAndEscaped() throws {
        let long = String(repeating: "x", count: 3000)
        for bad in ["\u{1B}[31mred\u{7}," + long + ",1", long + ",1", "time\u{0},rows"] {
            let text = bad.hasPrefix("time") ? bad + "\n" : "time_ms,rows\n" + bad + "\n"
            let e = error { _ = try TraceReader.parse(text, path: "t.csv") }
            let d = e?.description ?? ""
            XCTAssertLessThan(d.count, 240, d)
            XCTAssertFalse(d.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, d.debugDescription)
        }
    }

    func testSpanAndCountLimitsNameTheirVariable() throws {
        let e = error { _ = try TraceReader.parse("time_ms,rows\n0,1\n1e12,1\n", path: "t.csv") }
        XCTAssertEqual(e?.line, 3)
        XCTAssertTrue(
            e?.message.contains("86400000 ms") == true && e?.message.contains(TraceLimits.spanVariable) == true,
            "\(String(describing: e))"
        )
        let raised = try TraceLimits.fromEnvironment([TraceLimits.spanVariable: "1e12", TraceLimits.commitsVariable: "2"])
        XCTAssertEqual(try TraceReader.parse("time_ms,rows\n0,1\n1e12,1\n", limits: raised).count, 2)
        let e2 = error { _ = try TraceReader.parse("time_ms,rows\n0,1\n1,1\n2,1\n", path: "t.csv", limits: raised) }
        XCTAssertEqual(e2?.line, 4)
        XCTAssertTrue(e2?.message.contains(TraceLimits.commitsVariable) == true)
        XCTAssertNotNil(error { _ = try TraceLimits.fromEnvironment([TraceLimits.spanVariable: "0x10"]) })
        XCTAssertNotNil(error { _ = try TraceLimits.fromEnvironment([TraceLimits.commitsVariable: ""]) })
    }

    func gzip(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-k", "-f", path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return path + ".gz"
    }

    func testFileTraceStreamsTheSameCommitsPlainOrGzip() throws {
        var text = "time_ms,rows\r\n"
        for i in 0..<20_000 { text += "\(Double(i) * 0.75),\(i % 7 + 1)\n" }
        let plain = try file("t.csv", text)
        let packed = try gzip(plain)
        let expected = try TraceReader.parse(text)
        XCTAssertEqual(try TraceReader.read(path: packed), expected)
        let a = try TraceReader.open(path: plain), b = try TraceReader.open(path: packed)
        XCTAssertEqual(Array(CommitTrace.file(a)), expected)
        XCTAssertEqual(Array(CommitTrace.file(b)), expected)
        XCTAssertEqual(Array(CommitTrace.file(b)), expected, "every iteration streams the file again")
        XCTAssertNil(a.replayProblem)
        XCTAssertEqual(a.summary.commits, 20_000)
        XCTAssertEqual(a.summary.rows, expected.reduce(0) { $0 + Int64($1.rows) })
        XCTAssertEqual(a.summary.span, expected.last!.time - expected.first!.time)
        XCTAssertEqual(a.summary.checksum, b.summary.checksum, "the checksum is of the text, compressed or not")
        XCTAssertFalse(a.summary.compressed)
        XCTAssertTrue(b.summary.compressed)
        XCTAssertEqual(a.summary.fileName, "t.csv")
        // FNV-1a of the bytes, computed independently.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        XCTAssertEqual(a.summary.checksum, h)
        let json = String(decoding: try JSONEncoder().encode(a.summary), as: UTF8.self)
        XCTAssertTrue(json.contains("\"checksum\":\"fnv1a64:"), json)
    }

    func testCorruptOrTruncatedGzipIsAnError() throws {
        var text = "time_ms,rows\n"
        for i in 0..<20_000 { text += "\(i),1\n" }
        let packed = try gzip(try file("t.csv", text))
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: packed)))
        let truncated = try file("cut.csv.gz", Array(bytes.prefix(bytes.count / 2)))
        XCTAssertTrue(error { _ = try TraceReader.open(path: truncated) }?.message.contains("gzip") == true)
        for i in stride(from: 40, to: bytes.count - 20, by: 97) { bytes[i] ^= 0x5A }
        let corrupt = try file("bad.csv.gz", bytes)
        XCTAssertNotNil(error { _ = try TraceReader.open(path: corrupt) })
    }

    func testAReplayNoticesAChangedFile() throws {
        let path = try file("t.csv", "time_ms,rows\n0,1\n5,2\n")
        let trace = try TraceReader.open(path: path)
        try Data("time_ms,rows\n0,1\n5,2\n9,3\n".utf8).write(to: URL(fileURLWithPath: path))
        _ = Array(CommitTrace.file(trace))
        XCTAssertTrue(trace.replayProblem?.message.contains("changed while the run was replaying it") == true)
    }
}
