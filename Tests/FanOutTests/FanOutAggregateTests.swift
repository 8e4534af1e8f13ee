import Measurement
import Records
import XCTest

@testable import FanOut

/// The report keeps nothing of a sim item while items stream past: its table reads
/// the run's summaries, the same cells the records of every item give.
final class FanOutAggregateTests: XCTestCase {
    private func run(seeds: Int) throws -> StreamedRun<FanOutWorkload> {
        try StreamedRun(scenarios: ["login", "flaky"], seeds: seeds) {
            try FanOutWorkload(configuration: FanOutConfiguration(), environment: $0)
        }
    }

    func testTheFoldHoldsNoMoreForMoreSeeds() throws {
        let runs = try [1, 3].map(run(seeds:))
        for (seeds, r) in zip([1, 3], runs) {
            // One row per scenario and variant, each cell over every seed.
            let rows = r.report.table.split(separator: "\n").filter { $0.hasPrefix("login ") || $0.hasPrefix("flaky ") }
            XCTAssertEqual(rows.count, 2 * r.workload.variants.count, r.report.table)
            for row in rows {
                XCTAssertEqual(row.split(separator: " ", omittingEmptySubsequences: true)[3], "\(seeds)", String(row))
            }
        }
        let held = runs.map { $0.kept.comparisons.count + $0.kept.incomplete.count + $0.kept.overheadRecords.count }
        XCTAssertEqual(held, [0, 0], "what the report keeps must not grow with seeds")
    }

    /// The table from the summaries has the cells the values of every record give.
    func testTheTableFromSummariesHasEveryRecordsCells() throws {
        let r = try run(seeds: 3)
        let (w, records) = (r.workload, r.records)
        let table = FanOutRanking.simTable(summaries: Statistics.summarize(records)) { _ in "x" }
        let v = records.filter { $0.scenario == "flaky" && $0.variant == w.variants[0].name && $0.metric == "latency_p99_ms" }.map(\.value)
        XCTAssertEqual(v.count, 3)
        let cell = TextTable.spread(median: Statistics.median(v)!, min: v.min()!, max: v.max()!)
        let row = table.split(separator: "\n").first { $0.hasPrefix("flaky ") && $0.contains(" \(w.variants[0].name) ") }
        XCTAssertTrue(row?.contains(cell) == true, "\(cell) in \(row ?? "")")
    }

    /// Control: what the report read before (every item's records) grows with the seeds.
    func testEveryItemsRecordsGrowWithSeeds() throws {
        XCTAssertEqual(try run(seeds: 3).records.count, 3 * (try run(seeds: 1).records.count))
    }
}
