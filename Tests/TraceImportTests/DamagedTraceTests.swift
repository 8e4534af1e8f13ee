import Foundation
import XCTest

@testable import TraceImport

/// Each damage gives one error naming the file and the fault; the intact fixture, read the same
/// way, passes (the control that shows each check is what catches it).
final class DamagedTraceTests: XCTestCase {
    func survey(_ path: String, signpost: String = "commit", process: String? = nil) throws -> CommitSurvey {
        try CommitSurvey(path: path, format: try TraceFormat.sniff(path: path), signpost: signpost, process: process)
    }

    func assertFails(_ path: String, _ expected: String, signpost: String = "commit", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try survey(path, signpost: signpost), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(path + ": "), text, file: file, line: line)
            XCTAssertTrue(text.contains(expected), text, file: file, line: line)
            XCTAssertFalse(text.contains("\n"), "one line: \(text)", file: file, line: line)
        }
    }

    func testIntactFixturesPass() throws {
        for name in ["stream.xml", "stream.perfetto-trace"] { XCTAssertEqual(try survey(FixtureFiles.path(name)).commits, 300) }
    }

    func testTruncatedXML() throws {
        let path = try FixtureFiles.damaged("stream.xml") { $0.removeLast($0.count / 2) }
        assertFails(path, "truncated XML")
    }

    func testRefToAnUnknownId() throws {
        let path = try FixtureFiles.damaged("stream.xml") {
            FixtureFiles.replacing("<process ref=\"4\"/>", with: "<process ref=\"987654\"/>", in: &$0)
        }
        assertFails(path, "ref=\"987654\" names no earlier id")
    }

    func testRowShorterThanItsSchema() throws {
        let path = try FixtureFiles.damaged("stream.xml") { FixtureFiles.replacing("<sentinel/>", with: "", in: &$0) }
        assertFails(path, "row 1 has 9 cells, its schema 10 columns")
    }

    func testTruncatedProtobuf() throws {
        let path = try FixtureFiles.damaged("stream.perfetto-trace") { $0.removeLast(5) }
        assertFails(path, "truncated protobuf: packet 426 needs 27 bytes, the file ends after 22")
    }

    func testNoMatchingSignpost() throws {
        assertFails(FixtureFiles.path("stream.xml"), "no 'draw' signposts", signpost: "draw")
        assertFails(FixtureFiles.path("stream.perfetto-trace"), "no 'draw' signposts", signpost: "draw")
    }

    func testAnotherTableIsRefused() throws {
        let path = try FixtureFiles.damaged("stream.xml") {
            FixtureFiles.replacing("name=\"os-signpost\"", with: "name=\"time-profile\"", in: &$0)
        }
        assertFails(path, "not 'os-signpost'")
    }
}
