import XCTest

@testable import Measurement
@testable import Records
@testable import Timelines

/// `MatrixItem`: everything labelled from an item carries the coordinates its type names once.
final class MatrixItemTests: XCTestCase {
    private struct Cell: MatrixItem {
        var scenario: String
        var variant: String
        var seed: UInt64
        var repetition: Int
        var scenarioName: String { scenario }
        var variantName: String { "v-\(variant)" }
    }

    private let item = Cell(scenario: "bursts", variant: "a", seed: 7, repetition: 2)

    func testObservationsInTheModesTheItemRanIn() {
        let sim = [Observation("m", 1, "ms")]
        let live = [Observation("m", 3, "ms")]
        let groups = item.labelled(sim: sim, live: live)
        XCTAssertEqual(groups.map(\.mode), ["sim", "live"])
        XCTAssertEqual(Set(groups.map { "\($0.scenario) \($0.variant) \($0.seed) \($0.repetition)" }), ["bursts v-a 7 2"])
        XCTAssertEqual(item.labelled(sim: sim, live: nil).map(\.mode), ["sim"], "a mode the item did not run in has no group")
        let one = item.labelled("live", factors: ["k": "x"], live)
        XCTAssertEqual([one.mode, one.variant, one.factors["k"]], ["live", "v-a", "x"])
    }

    func testComparisonsAndTraceCarryTheCoordinates() {
        let comparisons = item.comparisons(sim: [Observation("m", 2, "ms")], live: [Observation("m", 3, "ms")])
        XCTAssertEqual(comparisons.map { "\($0.scenario) \($0.variant) \($0.metric) \($0.ratio ?? 0)" }, ["bursts v-a m 1.5"])
        XCTAssertEqual(item.comparisons(sim: [Observation("m", 2, "ms")], live: [Observation("m", 3, "ms")], metrics: ["other"]), [])
        let trace = item.trace("sim", [TraceEvent.counter("t", unit: "rows", at: 0, value: 1)])
        XCTAssertEqual([trace.scenario, trace.variant, trace.mode], ["bursts", "v-a", "sim"])
        XCTAssertEqual([trace.seed, UInt64(trace.repetition), UInt64(trace.events.count)], [7, 2, 1])
    }
}
