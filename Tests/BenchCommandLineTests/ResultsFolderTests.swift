import Foundation
import Records
import TestSupport
import XCTest

final class ResultsFolderTests: XCTestCase {
    func testASecondWriterOfTheSameWorkloadIsRefused() throws {
        let path = try temporaryFolder("patternbench-folder")
        try ResultsFolder(path: path).prepare(workload: "lockcheck")
        XCTAssertThrowsError(try ResultsFolder(path: path).prepare(workload: "lockcheck")) { error in
            XCTAssertTrue("\(error)".contains("another lockcheck run is writing this folder"), "\(error)")
        }
        // Another workload may share the folder (a nightly writes every workload into one).
        XCTAssertNoThrow(try ResultsFolder(path: path).prepare(workload: "lockcheck-other"))
    }

    func testStaleTemporaryFilesOfAKilledRunAreRemoved() throws {
        let path = try temporaryFolder("patternbench-folder")
        let stale = (path as NSString).appendingPathComponent(".stale.csv.12345.tmp")
        let foreign = (path as NSString).appendingPathComponent(".other.csv.12345.tmp")
        _ = FileManager.default.createFile(atPath: stale, contents: Data("half".utf8))
        _ = FileManager.default.createFile(atPath: foreign, contents: Data("half".utf8))
        try ResultsFolder(path: path).prepare(workload: "stale")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: foreign), "another workload's files are not ours to remove")
    }

    /// An unfinished run's document of `workload`: `completed` of `planned` items, these records.
    func partialDocument(_ workload: String, records: [ResultRecord], planned: Int, completed: Int) -> RunDocument {
        RunDocument(
            runID: "r",
            workload: workload,
            createdUTC: "2026-01-01T00:00:00Z",
            metadata: .current(parameters: [:]),
            factorNames: [],
            records: records,
            summaries: Statistics.summarize(records),
            complete: false,
            plannedItems: planned,
            completedItems: completed
        )
    }

    func testTheCSVAndJSONArriveTogetherWithNoTemporaryFilesLeft() throws {
        let path = try temporaryFolder("patternbench-folder")
        let folder = ResultsFolder(path: path)
        let record = ResultRecord(
            runID: "r",
            workload: "pair",
            scenario: "s",
            variant: "v",
            mode: "sim",
            seed: 1,
            repetition: 0,
            metric: "m",
            value: 1,
            unit: "u",
            host: "h"
        )
        let document = partialDocument("pair", records: [record], planned: 2, completed: 1)
        try folder.write(document)
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        XCTAssertEqual(names, ["pair.csv", "pair.json"])
        let decoded = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: folder.jsonPath(workload: "pair"))))
        XCTAssertEqual(decoded.complete, false)
        XCTAssertEqual(decoded.plannedItems, 2)
        XCTAssertEqual(decoded.completedItems, 1)
    }

    func testAnOlderDocumentWithoutTheCompletenessKeysReadsAsComplete() throws {
        let document = partialDocument("old", records: [], planned: 3, completed: 1)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: document.encoded()) as? [String: Any])
        for key in ["complete", "planned_items", "completed_items"] { object.removeValue(forKey: key) }
        let decoded = try RunDocument.decode(JSONSerialization.data(withJSONObject: object))
        XCTAssertTrue(decoded.complete)
        XCTAssertNil(decoded.plannedItems)
    }
}
