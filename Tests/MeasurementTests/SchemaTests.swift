import Foundation
import TestSupport
import XCTest

@testable import Records
@testable import Timelines

final class SchemaTests: XCTestCase {
    func record(_ metric: String, _ value: Double, factors: [String: String] = [:]) -> ResultRecord {
        ResultRecord(
            runID: "r1",
            workload: "throttle",
            scenario: "storm, \"big\"",
            variant: "immediate",
            mode: "sim",
            seed: 3,
            repetition: 0,
            metric: metric,
            value: value,
            unit: "ms",
            host: "h",
            factors: factors
        )
    }

    func testJSONRoundTrip() throws {
        let meta = RunMetadata(
            gitCommit: "abc",
            swiftVersion: "6.3",
            buildConfiguration: "debug",
            host: .current,
            commandLine: ["bench-throttle", "--quick"],
            parameters: ["seeds": .array([1, 2]), "mode": "sim"]
        )
        let records = [record("latency_p99_ms", 12.5), record("updates", 3)]
        let doc = RunDocument(
            runID: "r1",
            workload: "throttle",
            createdUTC: "2026-01-01T00:00:00Z",
            metadata: meta,
            factorNames: [],
            records: records,
            summaries: Statistics.summarize(records),
            comparisons: [Comparison(scenario: "s", variant: "v", metric: "m", unit: "ms", sim: 2, live: 3)],
            notes: ["n"]
        )
        let decoded = try RunDocument.decode(try doc.encoded())
        XCTAssertEqual(decoded, doc)
        XCTAssertEqual(decoded.schemaVersion, RunDocument.currentSchemaVersion)
        let json = String(decoding: try doc.encoded(), as: UTF8.self)
        for key in ["\"schema_version\"", "\"run_id\"", "\"created_utc\"", "\"build_configuration\"", "\"command_line\"", "\"cpu_model\""] {
            XCTAssertTrue(json.contains(key), key)
        }
        XCTAssertEqual(decoded.comparisons.first?.ratio, 1.5)
    }

    func testCSVIsTidyAndEscaped() {
        let csv = CSVWriter.render(
            [record("latency_p99_ms", 12.5, factors: ["threads": "4"]), record("updates", 3)],
            factorNames: ["threads"]
        )
        let lines = csv.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "run_id,workload,scenario,variant,origin,mode,seed,repetition,threads,metric,value,unit,host")
        XCTAssertEqual(lines[1], "r1,throttle,\"storm, \"\"big\"\"\",immediate,,sim,3,0,4,latency_p99_ms,12.5,ms,h")
        XCTAssertEqual(lines[2], "r1,throttle,\"storm, \"\"big\"\"\",immediate,,sim,3,0,,updates,3.0,ms,h")
        XCTAssertEqual(CSVWriter.format(0.1 + 0.2), "0.30000000000000004", "round-trips exactly")
        XCTAssertEqual(CSVWriter.format(.infinity), "inf")
    }

    /// The `value` column is spelled as a float in every row, so pandas, polars and DuckDB read it
    /// as one whatever rows come first (analysis/tests/test_csv_types.py reads real runs).
    func testValuesAreSpelledAsFloatsThatRoundTrip() {
        let spelled: [(Double, String)] = [
            (3, "3.0"), (0, "0.0"), (-2, "-2.0"), (12.5, "12.5"), (0.1 + 0.2, "0.30000000000000004"), (1e16, "1e+16"),
            (.nan, "NaN"), (.infinity, "1e999"), (-.infinity, "-1e999"),
        ]
        for (value, text) in spelled {
            XCTAssertEqual(CSVWriter.float(value), text)
            let back = Double(text)!
            XCTAssertTrue(back == value || (back.isNaN && value.isNaN), "\(text) reads back as \(back), not \(value)")
        }
        // The control: the general number format spells a whole number as an integer, which a
        // reader guessing types from the first rows takes for an integer column.
        XCTAssertEqual(CSVWriter.format(3), "3")
        XCTAssertEqual(CSVWriter.fields(record("updates", 3), factorNames: []).dropLast(2).last, "3.0")
    }

    /// The events CSV spells its numbers as floats too, and an absent one as `NaN`, not empty: a
    /// column with no number in any row (bench-throttle's `value`) still reads as a float.
    func testEventsNumbersAreFloatsAndAbsentIsNaN() {
        let update = TimelineRecord(
            runID: "r",
            workload: "throttle",
            scenario: "s",
            variant: "v",
            mode: "sim",
            seed: 1,
            repetition: 0,
            timeMs: 16,
            event: "update",
            rows: 3,
            reset: false,
            costMs: 2,
            frameLatenessMs: nil,
            track: "main",
            kind: "slice",
            value: nil
        )
        XCTAssertEqual(TimelineRecord.csvRows([update]), "r,throttle,s,v,sim,1,0,16.0,update,3,0,2.0,NaN,main,slice,NaN\n")
    }

    func testStatistics() {
        XCTAssertEqual(Statistics.median([3, 1, 2]), 2)
        XCTAssertEqual(Statistics.median([4, 1, 2, 3]), 2.5)
        XCTAssertNil(Statistics.median([]))
        XCTAssertEqual(Statistics.jainFairness([1, 1, 1, 1]), 1)
        XCTAssertEqual(Statistics.jainFairness([1, 0, 0, 0]), 0.25)
        XCTAssertEqual(Statistics.jainFairness([3, 1])!, 16.0 / 20.0, accuracy: 1e-12)
        XCTAssertEqual(Statistics.maxMinRatio([2, 4, 8]), 4)
        XCTAssertEqual(Statistics.maxMinRatio([0, 1]), .infinity)
        let rows = Statistics.summarize([record("m", 1), record("m", 5), record("m", 3)])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0].median, 3)
        XCTAssertEqual(rows[0].min, 1)
        XCTAssertEqual(rows[0].max, 5)
        XCTAssertEqual(rows[0].count, 3)
    }

    func testLatencyRecorderKeepsExactMaxAndBoundedPercentiles() {
        var r = LatencyRecorder()
        for v in 1...1000 { r.record(nanoseconds: Int64(v) * 1_000_000) }
        r.record(nanoseconds: 123_456_789_012)
        XCTAssertEqual(r.exactMax, 123_456_789_012)
        // The 501st of 1001 values is 501 ms; HdrHistogram reports its bucket's top (3 digits).
        XCTAssertEqual(Double(r.percentile(50)), 501e6, accuracy: 501e6 * 0.001)
        XCTAssertEqual(r.count, 1001)
    }

    func testAtomicWriteLeavesNoTemporaryFiles() throws {
        let dir = try temporaryFolder("atomic")
        try AtomicFile.write("one", to: dir + "/f.csv")
        try AtomicFile.write("two", to: dir + "/f.csv")
        XCTAssertEqual(try String(contentsOfFile: dir + "/f.csv", encoding: .utf8), "two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["f.csv"])
        XCTAssertThrowsError(try AtomicFile.write("x", to: "/nonexistent-dir/f.csv")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot write /nonexistent-dir/f.csv:"))
        }
    }

    func testTextTableNumbers() {
        XCTAssertEqual(TextTable.number(1234.4), "1234")
        XCTAssertEqual(TextTable.number(12.34), "12.3")
        XCTAssertEqual(TextTable.number(1.234), "1.23")
        XCTAssertEqual(TextTable.number(0.01234), "0.012")
        XCTAssertEqual(TextTable.number(-0.5), "-0.500")
        XCTAssertEqual(TextTable.number(.nan), "-")
    }
}
