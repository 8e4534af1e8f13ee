import Foundation
import XCTest

@testable import Measurement
@testable import Records
@testable import Timelines

/// Factor values in the JSON have the CSV's types, read back as the same text; `--events` rows
/// carry the item's factors.
final class FactorTypesTests: XCTestCase {
    func record(_ factors: [String: String], value: Double = 1) -> ResultRecord {
        ResultRecord(
            runID: "r",
            workload: "cache",
            scenario: "s",
            variant: "lru",
            mode: "sim",
            seed: 1,
            repetition: 0,
            metric: "hit_ratio",
            value: value,
            unit: "ratio",
            host: "h",
            factors: factors
        )
    }

    func document(_ records: [ResultRecord]) -> RunDocument {
        RunDocument(
            runID: "r",
            workload: "cache",
            createdUTC: "2026-01-01T00:00:00Z",
            metadata: RunMetadata(
                gitCommit: "abc",
                swiftVersion: "6.3",
                buildConfiguration: "debug",
                host: .current,
                commandLine: [],
                parameters: [:]
            ),
            factorNames: ["context", "capacity", "threads", "ratio"],
            records: records,
            summaries: Statistics.summarize(records)
        )
    }

    func testNumericColumnsAreNumbersAndRoundTrip() throws {
        let records = [
            record(["context": "nse", "capacity": "32", "threads": "1", "ratio": "0.25"]),
            record(["context": "main-app", "capacity": "1024", "threads": "", "ratio": "1e3"]),
        ]
        let doc = document(records)
        let data = try doc.encoded()
        let json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let first = ((json["records"] as! [[String: Any]])[0]["factors"]) as! [String: Any]
        let second = ((json["records"] as! [[String: Any]])[1]["factors"]) as! [String: Any]
        XCTAssertEqual(first["capacity"] as? Int, 32)
        XCTAssertEqual(first["threads"] as? Int, 1)
        XCTAssertTrue(second["threads"] is NSNull, "not applicable: null, as the CSV reader's NaN")
        XCTAssertEqual(first["context"] as? String, "nse")
        // Control: `1e3` is not how the CSV spells 1000, so the column stays text.
        XCTAssertEqual(first["ratio"] as? String, "0.25")
        XCTAssertEqual(String(decoding: data, as: UTF8.self).contains("\"capacity\" : \"32\""), false)
        let summary = ((json["summaries"] as! [[String: Any]])[0]["factors"]) as! [String: Any]
        XCTAssertNotNil(summary["capacity"] as? Int)
        // Read back, the factors are the CSV's text again: records, summaries and gate cells agree.
        XCTAssertEqual(try RunDocument.decode(data), doc)
    }

    func testOlderDocumentsWithTextFactorsStillRead() throws {
        var doc = document([record(["context": "nse", "capacity": "32", "threads": "1", "ratio": "2"])])
        doc.schemaVersion = 2
        let data = try doc.encoded()
        XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"capacity\" : \"32\""), "a version 2 document keeps text")
        let decoded = try RunDocument.decode(data)
        XCTAssertEqual(decoded.records[0].factors["capacity"], "32")
        XCTAssertEqual(decoded, doc)
        XCTAssertTrue(RunDocument.readableSchemaVersions.isSuperset(of: [1, 2, 3]))
    }

    func testEventsRowsCarryTheFactorsOfTheirResultsRows() {
        func event(_ variant: String, seed: UInt64) -> TimelineRecord {
            TimelineRecord(
                scenario: "s",
                variant: variant,
                mode: "sim",
                seed: seed,
                repetition: 0,
                timeMs: 1.5,
                event: "get",
                rows: 0,
                reset: false,
                costMs: 0,
                frameLatenessMs: nil
            )
        }
        let groups = [
            LabelledObservations(
                scenario: "s",
                variant: "lru",
                mode: "sim",
                seed: 1,
                repetition: 0,
                factors: ["capacity": "32"],
                observations: []
            ),
            LabelledObservations(
                scenario: "s",
                variant: "fifo",
                mode: "sim",
                seed: 1,
                repetition: 0,
                factors: ["capacity": "32"],
                observations: []
            ),
        ]
        var rows = [event("lru", seed: 1), event("harness", seed: 1)]
        TimelineRecord.stampFactors(&rows, from: groups)
        XCTAssertEqual(rows.map(\.factors), [["capacity": "32"], ["capacity": "32"]])
        let csv = TimelineRecord.csv(rows, factorNames: ["capacity"]).split(separator: "\n")
        XCTAssertEqual(
            String(csv[0]),
            "run_id,workload,scenario,variant,mode,seed,repetition,capacity,time_ms,event,rows,reset,cost_ms,frame_lateness_ms,track,kind,value"
        )
        XCTAssertEqual(String(csv[1]), ",,s,lru,sim,1,0,32,1.5,get,0,0,0.0,NaN,main,slice,NaN")
        // Control: groups that disagree give a row no group matches no factors rather than a guess.
        var orphan = [event("harness", seed: 1)]
        TimelineRecord.stampFactors(
            &orphan,
            from: groups + [
                LabelledObservations(
                    scenario: "s",
                    variant: "lru",
                    mode: "sim",
                    seed: 2,
                    repetition: 0,
                    factors: ["capacity": "64"],
                    observations: []
                )
            ]
        )
        XCTAssertEqual(orphan[0].factors, [:])
    }
}
