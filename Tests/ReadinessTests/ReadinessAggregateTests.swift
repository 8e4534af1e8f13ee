import Measurement
import XCTest

@testable import Readiness

/// The report keeps nothing per simulated launch while items stream past (issue 29): what it
/// folds holds as much for six seeds as for one, and its ranking, read from the run's summaries,
/// is the one the records of every item give.
final class ReadinessAggregateTests: XCTestCase {
    private func finished(seeds: Int) throws -> (ReadinessWorkload, [FinishedItem<ReadinessWorkload.Item, ReadinessWorkload.Sample>]) {
        var c = ReadinessConfiguration()
        c.globals = ["lazy-once"]
        let w = try ReadinessWorkload(configuration: c, selection: MatrixSelection(scenarios: ["nse", "main-app"], seedCount: seeds))
        return (w, try w.runEveryItem())
    }

    /// Records, comparisons and notes the fold holds.
    private func held(_ kept: ReadinessWorkload.Kept) -> Int { kept.probeRecords.count + kept.comparisons.count + kept.notes.count }

    func testTheFoldHoldsNoMoreForMoreSeedsAndRanksAsEveryRecordDoes() throws {
        var held: [Int] = []
        for seeds in [1, 6] {
            let (w, results) = try finished(seeds: seeds)
            let (kept, summaries, report) = try w.streamed(results)
            held.append(self.held(kept))
            XCTAssertEqual(report.table, ReadinessRanking.render(summaries: summaries, mode: "sim"))
            XCTAssertTrue(report.table.contains("nse, globals lazy-once"), report.table)
            XCTAssertEqual(summaries.first { $0.metric == "t_app_ready_ms" }?.count, seeds, "the summaries saw every seed")
        }
        XCTAssertEqual(held[0], held[1], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report read before (every item's records) grows with the seeds — the
    /// growth the bound above would catch.
    func testEveryItemsRecordsGrowWithSeeds() throws {
        let (w1, one) = try finished(seeds: 1)
        let (w6, six) = try finished(seeds: 6)
        XCTAssertEqual(w6.records(of: six).count, 6 * w1.records(of: one).count)
    }
}
