import Measurement
import XCTest

@testable import Timekeeping

/// The report keeps nothing of a simulated item but its verdicts while items stream past
/// (issue 29): what it holds for three seeds is what it holds for one, and so is its table.
final class ClockAggregateTests: XCTestCase {
    private func finished(seeds: Int) throws -> (ClockWorkload, [FinishedItem<ClockWorkload.Item, ClockWorkload.Sample>]) {
        var c = ClockConfiguration()
        c.readCost = false
        let w = try ClockWorkload(configuration: c, selection: MatrixSelection(scenarios: ["leap-second"], seedCount: seeds, quick: true))
        return (w, try w.runEveryItem())
    }

    /// Verdicts, read costs, and what live items add: the count of what the fold holds.
    private func held(_ kept: ClockWorkload.Kept) -> Int {
        kept.verdicts.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } + kept.baseline.count + kept.comparisons.count
            + kept.derived.count + kept.notes.count + kept.lastOverhead.count + (kept.table.isEmpty ? 0 : 1)
    }

    func testTheFoldHoldsNoMoreForMoreSeeds() throws {
        var held: [Int] = []
        var tables: [String] = []
        for seeds in [1, 3] {
            let (w, results) = try finished(seeds: seeds)
            let kept = w.folded(results)
            held.append(self.held(kept))
            tables.append(try w.report(kept, summaries: [], complete: true).table)
        }
        XCTAssertGreaterThan(held[0], 0, "the verdicts are kept")
        XCTAssertEqual(held[0], held[1], "what the report keeps must not grow with seeds")
        XCTAssertEqual(tables[0], tables[1], "the verdicts are the first repetition's")
        XCTAssertTrue(tables[0].contains("leap-second"), tables[0])
    }

    /// Control: what the report kept before (every item's observations) grows with the seeds.
    func testEveryItemsObservationsGrowWithSeeds() throws {
        func count(_ results: [FinishedItem<ClockWorkload.Item, ClockWorkload.Sample>]) -> Int {
            results.reduce(0) { total, r in
                guard case .simulated(let runs) = r.sample else { return total }
                return total + runs.reduce(0) { $0 + $1.observations.count }
            }
        }
        XCTAssertEqual(count(try finished(seeds: 3).1), 3 * count(try finished(seeds: 1).1))
    }
}
