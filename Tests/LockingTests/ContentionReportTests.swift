import XCTest

@testable import Locking
@testable import Records

/// The printed atomics table: one block per cell, every variant once, however many items the cell
/// was measured in.
final class ContentionReportTests: XCTestCase {
    func summary(_ variant: String, _ metric: String, _ value: Double, _ cell: ContentionCell) -> SummaryRow {
        SummaryRow(
            scenario: cell.operation.name,
            variant: variant,
            mode: "live",
            factors: cell.factors,
            metric: metric,
            unit: "",
            count: 1,
            median: value,
            min: value,
            max: value,
            mean: value
        )
    }

    /// A `user` variant's item of a cell runs beside the suite's item of the same cell, so the
    /// finished items name the cell twice; the table still shows each variant of it once (it
    /// printed every block twice before).
    func testACellMeasuredInTwoItemsIsShownOnce() throws {
        let mutex = try XCTUnwrap(LockVariant.builtIn.first { $0.name == "pthread-mutex" })
        let atomic = try XCTUnwrap(LockVariant.builtIn.first { $0.name == "atomic" })
        let cell = ContentionCell(operation: .increment, threads: 2)
        let plan = ContentionPlan(operations: [.increment], variants: [mutex, atomic], threads: [2], csWorks: [.none], gapWorks: [.none])
        let summaries = [summary("pthread-mutex", "ns_per_op", 30, cell), summary("atomic", "ns_per_op", 10, cell)]
        func rows(_ text: String, _ variant: String) -> Int {
            text.split(separator: "\n").filter { $0.split(separator: " ").contains(Substring(variant)) }.count
        }
        let once = ContentionReport.render(plan: plan, cells: [cell], summaries: summaries)
        let twice = ContentionReport.render(plan: plan, cells: [cell, cell], summaries: summaries)
        // The control: one item per cell shows each variant in one row.
        XCTAssertEqual(rows(once, "pthread-mutex"), 1, once)
        XCTAssertEqual(rows(twice, "pthread-mutex"), 1, twice)
        XCTAssertEqual(rows(twice, "atomic"), 1, twice)
        XCTAssertEqual(twice, once)
    }
}
