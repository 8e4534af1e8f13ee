import Measurement
import XCTest

@testable import Lifecycle

/// The report keeps nothing of a sim item while items stream past (issue 29): its ranking reads
/// the run's summaries, so what it holds does not grow with `--seeds`.
final class LifecycleAggregateTests: XCTestCase {
    private func finished(seeds: Int) throws -> (LifecycleWorkload, [FinishedItem<LifecycleWorkload.Item, LifecycleWorkload.Sample>]) {
        let w = try LifecycleWorkload(
            configuration: LifecycleConfiguration(),
            selection: MatrixSelection(scenarios: ["everyday"], seedCount: seeds, quick: true)
        )
        return (w, try w.runEveryItem())
    }

    func testTheFoldHoldsNoMoreForMoreSeedsAndRanksAsEveryRecordDoes() throws {
        var held: [Int] = []
        for seeds in [1, 4] {
            let (w, results) = try finished(seeds: seeds)
            let (kept, summaries, report) = try w.streamed(results)
            held.append(kept.notes.count + kept.killRecords.count)
            XCTAssertEqual(report.table, LifecycleRanking.render(summaries: summaries, mode: "sim"))
            XCTAssertTrue(report.table.contains("everyday (sim"), report.table)
            XCTAssertEqual(summaries.first?.count, seeds, "the summaries saw every seed")
        }
        XCTAssertEqual(held, [0, 0], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report read before (every item's records) grows with the seeds.
    func testEveryItemsRecordsGrowWithSeeds() throws {
        let (w1, one) = try finished(seeds: 1)
        let (w4, four) = try finished(seeds: 4)
        XCTAssertEqual(w4.records(of: four).count, 4 * w1.records(of: one).count)
    }
}
