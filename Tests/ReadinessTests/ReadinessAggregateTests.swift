import Measurement
import XCTest

@testable import Readiness

/// The report keeps nothing per simulated launch while items stream past: what it
/// folds holds as much for six seeds as for one, and its ranking, read from the run's summaries,
/// is the one the records of every item give.
final class ReadinessAggregateTests: XCTestCase {
    private func run(seeds: Int) throws -> StreamedRun<ReadinessWorkload> {
        try StreamedRun(scenarios: ["nse", "main-app"], seeds: seeds) {
            var c = ReadinessConfiguration()
            c.globals = ["lazy-once"]
            return try ReadinessWorkload(configuration: c, environment: $0)
        }
    }

    func testTheFoldHoldsNoMoreForMoreSeedsAndRanksAsEveryRecordDoes() throws {
        let runs = try [1, 6].map(run(seeds:))
        for (seeds, r) in zip([1, 6], runs) {
            XCTAssertEqual(r.report.table, ReadinessRanking.render(summaries: r.summaries, mode: "sim"))
            XCTAssertTrue(r.report.table.contains("nse, globals lazy-once"), r.report.table)
            XCTAssertEqual(r.summaries.first { $0.metric == "t_app_ready_ms" }?.count, seeds, "the summaries saw every seed")
        }
        // Records, comparisons and notes the fold holds.
        let held = runs.map { $0.kept.records.count + $0.kept.comparisons.count + $0.kept.notes.count }
        XCTAssertEqual(held[0], held[1], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report read before (every item's records) grows with the seeds — the
    /// growth the bound above would catch.
    func testEveryItemsRecordsGrowWithSeeds() throws {
        XCTAssertEqual(try run(seeds: 6).records.count, 6 * (try run(seeds: 1).records.count))
    }
}
