import Measurement
import XCTest

@testable import Invalidation

/// The report keeps nothing of a sim item while items stream past: each tally carries
/// its staleness samples, and keeping every item grew a run's peak with `--seeds`.
final class InvalidationAggregateTests: XCTestCase {
    private func run(seeds: Int) throws -> StreamedRun<InvalidationWorkload> {
        try StreamedRun(scenarios: ["foreground"], seeds: seeds) {
            try InvalidationWorkload(configuration: InvalidationConfiguration(), environment: $0)
        }
    }

    func testTheFoldHoldsNoMoreForMoreSeedsAndRanksAsEveryRecordDoes() throws {
        let runs = try [1, 4].map(run(seeds:))
        for r in runs {
            XCTAssertEqual(r.report.table, InvalidationRanking.render(records: r.records, scenarios: ["foreground"]))
            XCTAssertTrue(r.report.table.contains("foreground"), r.report.table)
        }
        XCTAssertEqual(runs.map(\.kept.comparisons.count), [0, 0], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report kept before (every item, staleness samples and all) grows with
    /// the seeds — the growth the bound above would catch.
    func testEveryItemsSamplesGrowWithSeeds() throws {
        let one = try run(seeds: 1).results.reduce(0) { $0 + $1.sample.sim.staleness.count }
        let four = try run(seeds: 4).results.reduce(0) { $0 + $1.sample.sim.staleness.count }
        XCTAssertGreaterThan(one, 0)
        XCTAssertGreaterThan(four, 2 * one)
    }
}
