import XCTest

@testable import TraceImport

/// A launch's signposted intervals read alike from xctrace and Perfetto.
final class IntervalImportTests: XCTestCase {
    func testLaunchIntervalsMatchAcrossFormats() throws {
        let xml = try IntervalEvents(path: FixtureFiles.path("launch.xml"), format: .xctrace, process: nil)
        let perfetto = try IntervalEvents(path: FixtureFiles.path("launch.perfetto-trace"), format: .perfetto, process: nil)
        XCTAssertEqual(xml.process, "Signal")
        XCTAssertEqual(xml.intervals, perfetto.intervals)
        XCTAssertEqual(xml.intervals.count, 8)
        XCTAssertEqual(xml.intervals.first, IntervalEvent(name: "will.database", start: 0, duration: 12_000_000, mainThread: true))
        XCTAssertEqual(xml.intervals.first { $0.name == "did.contacts" }?.mainThread, false)
    }

    func testAnUnclosedIntervalIsAnError() throws {
        // The row that ends polite.cleanup is the only one that refers to its name (id 44).
        let path = try FixtureFiles.damaged("launch.xml") { bytes in
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            bytes = Array(lines.filter { !$0.contains("<signpost-name ref=\"44\"/>") }.joined(separator: "\n").utf8)
        }
        XCTAssertThrowsError(try IntervalEvents(path: path, format: .xctrace, process: nil)) { error in
            XCTAssertTrue("\(error)".contains("interval 'polite.cleanup' of process 'Signal' begins but never ends"), "\(error)")
        }
    }
}
