import Foundation
import XCTest

@testable import Simulation

/// A replay parses plain lines (`123.456,7`) where they lie in the read buffer, in one pass;
/// everything else goes through the general path. The two must agree: the same commits, the
/// same checksum of the text, and the same error at the same line.
final class TraceLineFastPathTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trace-fast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func file(_ text: String) throws -> String {
        let url = dir.appendingPathComponent("t.csv")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func plain(_ text: String, after previous: Int64 = -1) -> (ns: Int64, rows: Int32, used: Int)? {
        var parser = TraceLineParser(path: "t", limits: .default)
        parser.sawHeader = true
        parser.previous = SimInstant(nanoseconds: previous)
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b in
            parser.plainLine(b).map { ($0.0.time.nanoseconds, $0.0.rows, $0.1) }
        }
    }

    func testPlainLinesAreTakenWithTheirLineBreak() {
        XCTAssertEqual(plain("12.5,3\nnext")?.ns, 12_500_000)
        XCTAssertEqual(plain("12.5,3\nnext")?.rows, 3)
        XCTAssertEqual(plain("12.5,3\nnext")?.used, 7)
        XCTAssertEqual(plain("7,012\r\n")?.rows, 12, "leading zeros, as StrictNumber.whole reads them")
        XCTAssertEqual(plain("7,012\r\n")?.used, 7)
        XCTAssertEqual(plain("0.000001,999999999\n")?.ns, 1)
        XCTAssertEqual(plain("5,1\n", after: 5_000_000)?.ns, 5_000_000, "an equal time is in order")
    }

    func testEveryOtherSpellingIsLeftToTheGeneralPath() {
        let others = [
            "12.5,3",  // no line break yet: the buffer may end inside the line
            "12.5,3\r", " 12.5,3\n", "12.5 ,3\n", "12.5, 3\n", "12.5,3 \n", "12.5,3,4\n", "+1,3\n", "-1,3\n",
            "1e3,3\n", "1.,3\n", ".5,3\n", "1.1234567,3\n", "1234567890,3\n", "12.5,0\n", "12.5,-3\n",
            "12.5,1234567890\n", "12.5,\n", ",3\n", "\n", "time_ms,rows\n", "86400001,1\n",
        ]
        for text in others { XCTAssertNil(plain(text), text.debugDescription) }
        XCTAssertNil(plain("5,1\n", after: 5_000_001), "out of order: the general path says where")
    }

    /// A file of plain and other lines, with lines cut by the end of the 256 KiB read buffer:
    /// the replay, which takes the fast path, gives what the general path gives line by line.
    func testReplayEqualsTheGeneralPath() throws {
        var generator = SeededGenerator(seed: 5)
        var text = "time_ms,rows\r\n"
        var us = 0  // whole microseconds, so every spelling below is the same exact time
        for i in 0..<60_000 {
            us += Int(generator.next() % 5000)
            let time = "\(us / 1000)." + String(format: "%03d", us % 1000)
            let rows = 1 + generator.next() % 40
            switch i % 11 {
            case 0: text += " \(time) , \(rows) \n"
            case 1: text += "\(time),\(rows)\r\n"
            case 2: text += "\n"
            case 3: text += "\(us)e-3,\(rows)\n"
            default: text += "\(time),\(rows)\n"
            }
        }
        text += "\(us / 1000 + 1),1"  // no final line break
        let path = try file(text)
        let general = try TraceReader.parse(text)
        let opened = try TraceReader.open(path: path)
        let zero = general[0].time.nanoseconds
        let shifted = general.map { Commit(time: SimInstant(nanoseconds: $0.time.nanoseconds - zero), rows: $0.rows) }
        XCTAssertEqual(Array(CommitTrace.file(opened)), shifted)
        XCTAssertNil(opened.replayProblem)
        XCTAssertEqual(opened.summary.commits, general.count)
        XCTAssertGreaterThan(text.utf8.count, 2 * LineStream.bufferBytes, "lines straddle refills")
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        XCTAssertEqual(opened.summary.checksum, h, "every byte hashed once, whichever path took its line")
    }

    /// A bad line after many plain ones: the same one-line error, at the same line, either way.
    func testErrorsNameTheSameLine() throws {
        var lines = ["time_ms,rows"]
        for i in 0..<30_000 { lines.append("\(i).25,\(i % 9 + 1)") }
        for bad in ["17.5,0", "1.0,2", "12.5,3,4", "abc,1"] {
            let text = (lines + [bad, "99999,1"]).joined(separator: "\n") + "\n"
            let path = try file(text)
            var general: InputFileError?
            do { _ = try TraceReader.parse(text, path: path) } catch { general = error }
            var streamed: InputFileError?
            do { _ = try TraceReader.open(path: path) } catch { streamed = error }
            XCTAssertNotNil(general, bad)
            XCTAssertEqual(streamed, general, bad)
            XCTAssertEqual(streamed?.line, 30_002, bad)
        }
    }
}
