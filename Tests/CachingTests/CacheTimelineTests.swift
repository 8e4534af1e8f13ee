import Measurement
import Simulation
import XCTest

@testable import Caching

/// A simulated cache's timeline: recording it changes no result, its counts are the run's, and
/// the miss storm after a clear shows in the windowed hit ratio.
final class CacheTimelineTests: XCTestCase {
    let trace = AccessTrace(
        keys: TestTraces.zipf(count: 6000, keys: 60, seed: 5),
        events: [(3000, .background), (3000, .memoryWarning), (4500, .memoryWarning)],
        interval: .milliseconds(5)
    )

    func testRecordingChangesNothingAndCountsAreTheRuns() {
        for v in CacheVariant.builtIn {
            let plain = CacheSimulation.run(variant: v, trace: trace, profile: .thread, context: .mainApp, seed: 1)
            let traced = CacheSimulation.run(variant: v, trace: trace, profile: .thread, context: .mainApp, seed: 1, recordTimeline: true)
            XCTAssertEqual(plain.observations, traced.observations, v.name)
            XCTAssertTrue(plain.trace.isEmpty, v.name)
            // Control: the comparison can fail (another seed of the store's costs measures otherwise).
            let other = CacheSimulation.run(variant: v, trace: trace, profile: .thread, context: .mainApp, seed: 2)
            XCTAssertNotEqual(plain.observations, other.observations, v.name)

            let events = traced.trace
            XCTAssertEqual(events.filter { $0.name == "hit" && $0.kind == .instant }.count, plain.hits, v.name)
            XCTAssertEqual(events.filter { $0.name == "miss" && $0.kind == .slice }.count, plain.reads - plain.hits, v.name)
            XCTAssertEqual(events.filter { $0.name == "clear" }.count, plain.clears, v.name)
            XCTAssertEqual(events.filter { $0.track == "lifecycle" && $0.name != "clear" }.count, 3, v.name)
            let occupancy = events.filter { $0.track == "occupancy" }.compactMap(\.value)
            XCTAssertLessThanOrEqual(occupancy.max() ?? 0, Double(plain.capacity), v.name)
        }
    }

    /// signal-2021 clears on both events: the window after the clear has far fewer hits than the
    /// one before (0.54 against 0.72 here), and occupancy drops to 0 there.
    func testTheMissStormAfterAClearIsVisible() {
        let r = CacheSimulation.run(variant: .signal2021, trace: trace, profile: .thread, context: .mainApp, seed: 1, recordTimeline: true)
        XCTAssertEqual(r.clears, 2)
        let clearAt = Int64(3000) * 5_000_000
        let ratios = r.trace.filter { $0.track == "hit ratio" }
        let before = ratios.last { $0.startNanoseconds < clearAt }!.value!
        let after = ratios.first { $0.startNanoseconds >= clearAt }!.value!
        XCTAssertGreaterThan(before, 0.5)
        XCTAssertLessThan(after, before - 0.1)
        XCTAssertTrue(r.trace.contains { $0.track == "occupancy" && $0.startNanoseconds == clearAt && $0.value == 0 })
    }
}
