import Measurement
import XCTest

@testable import FanOut

/// The report keeps nothing of a sim item while items stream past (issue 29): its table reads
/// the run's summaries, the same cells the records of every item give.
final class FanOutAggregateTests: XCTestCase {
    private func finished(seeds: Int) throws -> (FanOutWorkload, [FinishedItem<FanOutWorkload.Item, FanOutWorkload.Sample>]) {
        let w = try FanOutWorkload(
            configuration: FanOutConfiguration(),
            selection: MatrixSelection(scenarios: ["login", "flaky"], seedCount: seeds, quick: true)
        )
        return (w, try w.runEveryItem())
    }

    func testTheFoldHoldsNoMoreForMoreSeeds() throws {
        var held: [Int] = []
        for seeds in [1, 3] {
            let (w, results) = try finished(seeds: seeds)
            let (kept, _, report) = try w.streamed(results)
            held.append(kept.comparisons.count + kept.incomplete.count + kept.overheadRecords.count)
            // One row per scenario and variant, each cell over every seed.
            let rows = report.table.split(separator: "\n").filter { $0.hasPrefix("login ") || $0.hasPrefix("flaky ") }
            XCTAssertEqual(rows.count, 2 * w.variants.count, report.table)
            for row in rows {
                XCTAssertEqual(row.split(separator: " ", omittingEmptySubsequences: true)[3], "\(seeds)", String(row))
            }
        }
        XCTAssertEqual(held, [0, 0], "what the report keeps must not grow with seeds")
    }

    /// The table from the summaries has the cells the values of every record give.
    func testTheTableFromSummariesHasEveryRecordsCells() throws {
        let (w, results) = try finished(seeds: 3)
        let records = w.records(of: results)
        let table = FanOutRanking.simTable(summaries: Statistics.summarize(records)) { _ in "x" }
        let v = records.filter { $0.scenario == "flaky" && $0.variant == w.variants[0].name && $0.metric == "latency_p99_ms" }.map(\.value)
        XCTAssertEqual(v.count, 3)
        let cell = TextTable.spread(median: Statistics.median(v)!, min: v.min()!, max: v.max()!)
        let row = table.split(separator: "\n").first { $0.hasPrefix("flaky ") && $0.contains(" \(w.variants[0].name) ") }
        XCTAssertTrue(row?.contains(cell) == true, "\(cell) in \(row ?? "")")
    }

    /// Control: what the report read before (every item's records) grows with the seeds.
    func testEveryItemsRecordsGrowWithSeeds() throws {
        let (w1, one) = try finished(seeds: 1)
        let (w3, three) = try finished(seeds: 3)
        XCTAssertEqual(w3.records(of: three).count, 3 * w1.records(of: one).count)
    }
}
