import Measurement
import XCTest

@testable import Timekeeping

/// The report keeps nothing of a simulated item but its verdicts while items stream past:
/// what it holds for three seeds is what it holds for one, and so is its table.
final class ClockAggregateTests: XCTestCase {
    private func run(seeds: Int) throws -> StreamedRun<ClockWorkload> {
        try StreamedRun(scenarios: ["leap-second"], seeds: seeds) {
            var c = ClockConfiguration()
            c.readCost = false
            return try ClockWorkload(configuration: c, environment: $0)
        }
    }

    /// Verdicts, read costs, and what live items add: the count of what the fold holds.
    private func held(_ kept: ClockWorkload.Kept) -> Int {
        kept.verdicts.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } + kept.baseline.count + kept.comparisons.count
            + kept.derived.count + kept.notes.count + kept.lastOverhead.count + (kept.table.isEmpty ? 0 : 1)
    }

    func testTheFoldHoldsNoMoreForMoreSeeds() throws {
        let runs = try [1, 3].map(run(seeds:))
        let held = runs.map { self.held($0.kept) }
        let tables = runs.map(\.report.table)
        XCTAssertGreaterThan(held[0], 0, "the verdicts are kept")
        XCTAssertEqual(held[0], held[1], "what the report keeps must not grow with seeds")
        XCTAssertEqual(tables[0], tables[1], "the verdicts are the first repetition's")
        XCTAssertTrue(tables[0].contains("leap-second"), tables[0])
    }

    /// Control: what the report kept before (every item's observations) grows with the seeds.
    func testEveryItemsObservationsGrowWithSeeds() throws {
        func count(_ run: StreamedRun<ClockWorkload>) -> Int {
            run.results.reduce(0) { total, r in
                guard case .simulated(let runs) = r.sample else { return total }
                return total + runs.reduce(0) { $0 + $1.observations.count }
            }
        }
        XCTAssertEqual(count(try run(seeds: 3)), 3 * count(try run(seeds: 1)))
    }
}
