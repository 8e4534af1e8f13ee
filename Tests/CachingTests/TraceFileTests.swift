import Foundation
import Measurement
import XCTest

@testable import Caching

final class TraceFileTests: XCTestCase {
    func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).csv")
        try text.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testReadsKeysInFirstAppearanceOrder() throws {
        let t = try KeyTraceFile(path: write("\u{FEFF}key\r\nuser-7\r\nuser-3\r\nuser-7\r\n"))
        XCTAssertEqual(t.keys, [0, 1, 0])
        XCTAssertEqual(t.distinctKeys, 2)
    }

    func testMalformedLinesNameTheLine() throws {
        let cases: [(String, String)] = [
            ("id\n1\n", ":1: expected header 'key', found 'id'"),
            ("key\n1\n\n2\n", ":3: empty key"),
            ("key\n1\n2,3\n", ":3: expected one column 'key', found '2,3'"),
            ("key\n", "no reads after the header"),
            ("", ":1: empty file"),
        ]
        for (text, expected) in cases {
            let path = try write(text)
            XCTAssertThrowsError(try KeyTraceFile(path: path)) { error in
                let failure = error as! BenchFailure
                XCTAssertTrue(failure.message.contains(expected), "\(failure.message) lacks \(expected)")
                XCTAssertFalse(failure.message.contains("\n"))
                XCTAssertEqual(failure.exitCode, 65)
            }
        }
        XCTAssertEqual((try? KeyTraceFile(path: "/nonexistent/x.csv")) == nil, true)
    }
}
