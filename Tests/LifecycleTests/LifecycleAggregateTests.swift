import Measurement
import XCTest

@testable import Lifecycle

/// The report keeps nothing of a sim item while items stream past: its ranking reads
/// the run's summaries, so what it holds does not grow with `--seeds`.
final class LifecycleAggregateTests: XCTestCase {
    private func run(seeds: Int) throws -> StreamedRun<LifecycleWorkload> {
        try StreamedRun(scenarios: ["everyday"], seeds: seeds) {
            try LifecycleWorkload(configuration: LifecycleConfiguration(), environment: $0)
        }
    }

    func testTheFoldHoldsNoMoreForMoreSeedsAndRanksAsEveryRecordDoes() throws {
        let runs = try [1, 4].map(run(seeds:))
        for (seeds, r) in zip([1, 4], runs) {
            XCTAssertEqual(r.report.table, LifecycleRanking.render(summaries: r.summaries, mode: "sim"))
            XCTAssertTrue(r.report.table.contains("everyday (sim"), r.report.table)
            XCTAssertEqual(r.summaries.first?.count, seeds, "the summaries saw every seed")
        }
        let held = runs.map { $0.kept.notes.count + $0.kept.records.count }
        XCTAssertEqual(held, [0, 0], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report read before (every item's records) grows with the seeds.
    func testEveryItemsRecordsGrowWithSeeds() throws {
        XCTAssertEqual(try run(seeds: 4).records.count, 4 * (try run(seeds: 1).records.count))
    }
}
