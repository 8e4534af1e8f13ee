import Foundation
import XCTest

@testable import Simulation

final class TraceReaderTests: XCTestCase {
    func testParsesAValidTrace() throws {
        let commits = try TraceReader.parse("time_ms,rows\r\n0,3\n12.5,1\n12.5,200\n\n")
        XCTAssertEqual(
            commits,
            [
                Commit(time: .zero, rows: 3),
                Commit(time: SimInstant(nanoseconds: 12_500_000), rows: 1),
                Commit(time: SimInstant(nanoseconds: 12_500_000), rows: 200),
            ]
        )
    }

    func assertError(_ text: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try TraceReader.parse(text, path: "t.csv"), file: file, line: line) { error in
            XCTAssertEqual((error as? InputFileError)?.description, expected, file: file, line: line)
        }
    }

    func testErrorsNameTheLineAndField() {
        assertError("", "t.csv: is empty; expected header 'time_ms,rows' and at least one commit")
        assertError("time_ms,rows\n", "t.csv: has a header but no commits")
        assertError("time,rows\n1,1\n", "t.csv:1: expected header 'time_ms,rows', found 'time,rows'")
        assertError("time_ms,rows\n1,1\n2\n", "t.csv:3: expected 2 fields (time_ms,rows), found 1")
        assertError("time_ms,rows\nabc,1\n", "t.csv:2: time_ms: 'abc' is not a number")
        assertError("time_ms,rows\n-1,1\n", "t.csv:2: time_ms: must be a finite number ≥ 0, got -1")
        assertError("time_ms,rows\nnan,1\n", "t.csv:2: time_ms: must be a finite number ≥ 0, got nan")
        assertError("time_ms,rows\n1,x\n", "t.csv:2: rows: 'x' is not a whole number")
        assertError("time_ms,rows\n1,0\n", "t.csv:2: rows: must be ≥ 1, got 0")
        assertError("time_ms,rows\n5,1\n4,1\n", "t.csv:3: time_ms: 4 is earlier than the line before: the trace must be sorted by time")
    }

    func testMissingFileAndDirectory() {
        XCTAssertThrowsError(try TraceReader.read(path: "/nonexistent/trace.csv")) { error in
            XCTAssertEqual((error as? InputFileError)?.description, "/nonexistent/trace.csv: no such file")
        }
        XCTAssertThrowsError(try TraceReader.read(path: NSTemporaryDirectory())) { error in
            XCTAssertTrue((error as? InputFileError)?.description.contains("is a directory") == true)
        }
    }
}
