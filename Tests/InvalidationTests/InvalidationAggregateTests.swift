import Measurement
import XCTest

@testable import Invalidation

/// The report keeps nothing of a sim item while items stream past (issue 29): each tally carries
/// its staleness samples, and keeping every item grew a run's peak with `--seeds`.
final class InvalidationAggregateTests: XCTestCase {
    private func finished(
        seeds: Int
    ) throws -> (InvalidationWorkload, [FinishedItem<InvalidationWorkload.Item, InvalidationWorkload.Sample>]) {
        let w = try InvalidationWorkload(
            configuration: InvalidationConfiguration(),
            selection: MatrixSelection(scenarios: ["foreground"], seedCount: seeds, quick: true)
        )
        return (w, try w.runEveryItem())
    }

    func testTheFoldHoldsNoMoreForMoreSeedsAndRanksAsEveryRecordDoes() throws {
        var held: [Int] = []
        for seeds in [1, 4] {
            let (w, results) = try finished(seeds: seeds)
            let (kept, _, report) = try w.streamed(results)
            held.append(kept.comparisons.count)
            let records = w.records(of: results)
            XCTAssertEqual(report.table, InvalidationRanking.render(records: records, scenarios: ["foreground"]))
            XCTAssertTrue(report.table.contains("foreground"), report.table)
        }
        XCTAssertEqual(held, [0, 0], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report kept before (every item, staleness samples and all) grows with
    /// the seeds — the growth the bound above would catch.
    func testEveryItemsSamplesGrowWithSeeds() throws {
        let one = try finished(seeds: 1).1.reduce(0) { $0 + $1.sample.sim.staleness.count }
        let four = try finished(seeds: 4).1.reduce(0) { $0 + $1.sample.sim.staleness.count }
        XCTAssertGreaterThan(one, 0)
        XCTAssertGreaterThan(four, 2 * one)
    }
}
