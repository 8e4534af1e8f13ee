import XCTest

@testable import Measurement
@testable import Records

/// `FoldingWorkload.replayedReport(_:complete:)`: a whole list of finished items reported as the driver
/// reports them after streaming — every item folded, every record summarised.
final class FoldingWorkloadTests: XCTestCase {
    /// Items are values; the fold sums them, the summaries give their median.
    private struct Summing: FoldingWorkload {
        static let name = "summing"
        static var catalogue: WorkloadCatalogue { WorkloadCatalogue(sections: []) }
        let items: [Int]
        var factorNames: [String] { [] }
        var parameters: [String: JSONValue] { [:] }
        func label(_ item: Int) -> String { "\(item)" }
        func run(_ item: Int) throws -> Int { item }
        func observations(for item: Int, sample: Int) -> [LabelledObservations] {
            [
                LabelledObservations(
                    scenario: "s",
                    variant: "v",
                    mode: "sim",
                    seed: UInt64(item),
                    repetition: 0,
                    observations: [Observation("value", Double(sample), "u")]
                )
            ]
        }
        var emptyAggregate: Int { 0 }
        func aggregate(_ sum: inout Int, _ finished: FinishedItem<Int, Int>) { sum += finished.sample }
        func report(_ sum: Int, summaries: [SummaryRow], complete: Bool) throws -> WorkloadReport {
            WorkloadReport(table: "sum \(sum), median \(summaries.map(\.median)), complete \(complete)")
        }
    }

    func testTheListIsFoldedAndSummarisedWhole() throws {
        let w = Summing(items: [1, 2, 6])
        XCTAssertEqual(try w.replayedReport(w.runEveryItem(), complete: false).table, "sum 9, median [2.0], complete false")
    }

    /// Control: a report of part of the list differs, so the test above sees every item.
    func testPartOfTheListGivesAnotherReport() throws {
        let w = Summing(items: [1, 2, 6])
        let results = try w.runEveryItem()
        XCTAssertEqual(try w.replayedReport(Array(results.prefix(2)), complete: true).table, "sum 3, median [1.5], complete true")
    }
}
