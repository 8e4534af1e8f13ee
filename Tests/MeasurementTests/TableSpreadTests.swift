import XCTest

@testable import Records

/// Every bench-* table shows n and the spread beside its median (SummaryRow+Cell.swift).
final class TableSpreadTests: XCTestCase {
    private func record(_ variant: String, seed: UInt64, _ value: Double, metric: String = "hit_ratio") -> ResultRecord {
        ResultRecord(
            runID: "r",
            workload: "cache",
            scenario: "zipf-0.9",
            variant: variant,
            mode: "sim",
            seed: seed,
            repetition: 0,
            metric: metric,
            value: value,
            unit: "ratio",
            host: "h"
        )
    }

    func testSeedsThatDifferShowTheirRangeAndCount() throws {
        // zipf-0.9 lru at 256 in a real run: 0.3068 and 0.3210 over two seeds
        let rows = Statistics.summarize([record("lru", seed: 1, 0.3068), record("lru", seed: 2, 0.3210)])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0].cell, "0.314 (0.307–0.321)")
        XCTAssertEqual(TextTable.count(rows), "2")
    }

    func testEqualValuesShowTheMedianAlone() throws {
        // the control: the range is printed only where the seeds differ
        let rows = Statistics.summarize([record("lru", seed: 1, 0.5), record("lru", seed: 2, 0.5)])
        XCTAssertEqual(rows[0].cell, "0.500")
        XCTAssertEqual(TextTable.count(rows), "2")
    }

    func testCountsThatDifferAcrossCellsShowTheirRange() throws {
        let rows = Statistics.summarize([
            record("lru", seed: 1, 1, metric: "a"), record("lru", seed: 2, 2, metric: "a"), record("lru", seed: 1, 3, metric: "b"),
        ])
        XCTAssertEqual(TextTable.count(rows), "1-2")
        XCTAssertEqual(TextTable.count([]), "0")
    }
}
