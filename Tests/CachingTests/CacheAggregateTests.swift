import Measurement
import XCTest

@testable import Caching

/// What bench-cache's report keeps per item: not the per-read latencies (they grew the run's peak
/// by about 30 MB a seed, issue 29), yet the same observations.
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
}
