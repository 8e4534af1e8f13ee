import Foundation
import XCTest

@testable import TraceImport

/// The same commit stream as a CSV, an xctrace export and a Perfetto trace reads as the same
/// commits; the other process and the other signpost names are left out.
final class CommitImportTests: XCTestCase {
    func commits(_ name: String, signpost: String = "commit", process: String? = nil) throws -> (CommitSurvey, [CommitEvent]) {
        let path = FixtureFiles.path(name)
        let survey = try CommitSurvey(path: path, format: try TraceFormat.sniff(path: path), signpost: signpost, process: process)
        var events = try CommitEvents(survey)
        var out: [CommitEvent] = []
        while let e = try events.next() { out.append(e) }
        return (survey, out)
    }

    func testFormatsAreToldFromTheContent() throws {
        XCTAssertEqual(try TraceFormat.sniff(path: FixtureFiles.path("stream.csv")), .csv)
        XCTAssertEqual(try TraceFormat.sniff(path: FixtureFiles.path("stream.xml")), .xctrace)
        XCTAssertEqual(try TraceFormat.sniff(path: FixtureFiles.path("stream.perfetto-trace")), .perfetto)
        XCTAssertEqual(TraceFormat.sniff(Array("\ntime_ms,rows\n0,1\n".utf8)[...]), .csv, "a CSV may start with a blank line")
    }

    func testTheThreeFormatsGiveTheSameCommits() throws {
        let csv = try FixtureFiles.csvCommits("stream.csv").map { CommitEvent(time: $0.0, rows: $0.1) }
        let (xmlSurvey, xml) = try commits("stream.xml")
        let (perfettoSurvey, perfetto) = try commits("stream.perfetto-trace")
        XCTAssertEqual(csv.count, 300)
        XCTAssertEqual(xml, csv)
        XCTAssertEqual(perfetto, csv)
        XCTAssertEqual(xmlSurvey.process, "Signal", "the process with the most commits")
        XCTAssertEqual(perfettoSurvey.process, "Signal")
        XCTAssertEqual(xmlSurvey.processes, ["Signal": 300, "SpringBoard": 75])
        XCTAssertEqual(perfettoSurvey.processes, xmlSurvey.processes)
        XCTAssertEqual(xml.first?.time, 0, "time zero is the first commit")
        XCTAssertTrue(csv.contains { $0.rows > 1 } && csv.contains { $0.rows == 1 })
    }

    func testProcessAndSignpostPickTheStream() throws {
        let (survey, events) = try commits("stream.xml", process: "SpringBoard")
        XCTAssertEqual(events.count, 75)
        XCTAssertEqual(survey.rows, 150)
        let (_, perfetto) = try commits("stream.perfetto-trace", process: "SpringBoard")
        XCTAssertEqual(perfetto, events)
        let (layout, _) = try commits("stream.xml", signpost: "layout")
        XCTAssertEqual(layout.commits, 3)
    }
}
