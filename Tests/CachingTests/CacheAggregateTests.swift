import Measurement
import XCTest

@testable import Caching

/// What bench-cache's report keeps per item: not the per-read latencies (they grew the run's peak
/// by about 30 MB a seed), yet the same observations.
final class CacheAggregateTests: XCTestCase {
    func testAResultWithoutLatenciesReportsTheSameObservations() {
        let scenario = CacheScenario.catalogue.first { $0.name == "chat-scroll" }!
        let trace = scenario.trace(count: 3000, seed: 7) { ZipfSampler(n: $0, skew: $1) }
        for v in CacheVariant.builtIn {
            let full = CacheSimulation.run(variant: v, trace: trace, profile: scenario.profile, context: .mainApp, seed: 7, reference: true)
            let kept = full.withoutLatencies()
            XCTAssertEqual(kept.latencies, [], v.name)
            XCTAssertEqual(kept.observations, full.observations, v.name)
        }
    }

    /// Control: dropping the latencies without keeping their percentiles changes the report (the
    /// percentiles read 0), so the test above can fail.
    func testDroppingTheLatenciesAloneChangesTheObservations() {
        let scenario = CacheScenario.catalogue.first { $0.name == "chat-scroll" }!
        let trace = scenario.trace(count: 3000, seed: 7) { ZipfSampler(n: $0, skew: $1) }
        let full = CacheSimulation.run(
            variant: CacheVariant.builtIn[0],
            trace: trace,
            profile: scenario.profile,
            context: .mainApp,
            seed: 7,
            reference: true
        )
        var dropped = full
        dropped.latencies = []
        XCTAssertNotEqual(dropped.observations, full.observations)
    }

    private func run(seeds: Int) throws -> StreamedRun<CacheWorkload> {
        var c = CacheConfiguration()
        c.capacities = [32, 256]
        c.contexts = ["main-app"]
        return try StreamedRun(scenarios: ["chat-scroll"], seeds: seeds) { try CacheWorkload(configuration: c, environment: $0) }
    }

    /// The report's fold keeps nothing of a sim item (each kept item, even without its
    /// latencies, still grew the peak with `--seeds`); its tables come from the run's summaries.
    func testTheFoldHoldsNoMoreForMoreSeedsAndTheTablesSeeEverySeed() throws {
        let runs = try [1, 3].map(run(seeds:))
        for (seeds, r) in zip([1, 3], runs) {
            XCTAssertNil(r.report.failure, "lru agrees with its stack-distance reference")
            let rows = r.report.table.split(separator: "\n").map { $0.split(separator: " ") }.filter {
                $0.count > 2 && ["lru", "s3-fifo"].contains($0[1])
            }
            XCTAssertEqual(rows.count, 2, r.report.table)
            for row in rows { XCTAssertEqual(row[2], "\(seeds)", "n: every seed: \(row)") }
            XCTAssertTrue(r.report.table.contains("s3-fifo vs lru on hit ratio"), r.report.table)
        }
        let held = runs.map { $0.kept.liveRecords.count + ($0.kept.referenceMismatch == nil ? 0 : 1) }
        XCTAssertEqual(held, [0, 0], "what the report keeps must not grow with seeds")
    }

    /// Control: what the report kept before (every item) grows with the seeds.
    func testEveryItemGrowsWithSeeds() throws {
        XCTAssertEqual(try run(seeds: 3).results.count, 3 * (try run(seeds: 1).results.count))
    }
}
