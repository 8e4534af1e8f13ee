import Foundation
import Timelines
import XCTest

@testable import BenchCommandLine

/// `--events` rows go to disk item by item as the run goes (they were kept until the
/// end), and the file is the CSV that writing them all at once gave.
final class EventsStreamTests: XCTestCase {
    func rows(item: Int, count: Int) -> [TimelineRecord] {
        (0..<count).map { k in
            var r = TimelineRecord(
                scenario: "s\(item)",
                variant: "v, \"quoted\"",
                mode: "sim",
                seed: UInt64(item),
                repetition: 0,
                timeMs: Double(k) / 8,
                event: "frame",
                rows: k,
                reset: k % 2 == 0,
                costMs: 0.25,
                frameLatenessMs: k % 3 == 0 ? nil : 1.5,
                track: "main",
                kind: "slice",
                value: Double(k)
            )
            r.factors = ["capacity": "\(item * 10)"]
            return r
        }
    }

    func path() -> String {
        let path = NSTemporaryDirectory() + "patternbench-events-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).csv"
        addTeardownBlock { unlink(path) }
        return path
    }

    func testRowsStreamedItemByItemAreTheWholeCSV() throws {
        let path = path()
        let file = try TimelineFile(path: path)
        let stream = try file.eventsStream(runID: "run-1", workload: "cache", factorNames: ["capacity"], capacity: 4096)
        var all: [TimelineRecord] = []
        for item in 0..<5 {
            let batch = rows(item: item, count: 200)
            try stream.add(batch)
            all += batch.map {
                var r = $0
                r.runID = "run-1"
                r.workload = "cache"
                return r
            }
        }
        try file.commit(stream)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), TimelineRecord.csv(all, factorNames: ["capacity"]))
    }

    /// What is on disk before the end: nearly all rows of the items added so far, the buffer's
    /// worth (4 KiB here) at most held back. Control: a stream given less than its buffer has
    /// written nothing yet, so the size tells what left memory.
    func testRowsAreOnDiskBeforeTheRunEnds() throws {
        let file = try TimelineFile(path: path())
        let stream = try file.eventsStream(runID: "r", workload: "cache", factorNames: ["capacity"], capacity: 4096)
        var added = 0
        for item in 0..<5 {
            let batch = rows(item: item, count: 300)
            added += TimelineRecord.csvRows(batch, factorNames: ["capacity"]).utf8.count
            try stream.add(batch)
        }
        XCTAssertGreaterThan(stream.file.size, Int64(added - 4096 - 200))

        let small = try TimelineFile(path: path())
        let idle = try small.eventsStream(runID: "r", workload: "cache", factorNames: [], capacity: 1 << 20)
        try idle.add(rows(item: 0, count: 10))
        XCTAssertEqual(idle.file.size, 0)
    }
}
