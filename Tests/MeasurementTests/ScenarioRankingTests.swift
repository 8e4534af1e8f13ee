import XCTest

@testable import Records

/// `ScenarioRanking`: the per-scenario loop every ranked table shares.
final class ScenarioRankingTests: XCTestCase {
    /// Ranks by median `cost`, lowest first.
    private enum ByCost: ScenarioRanking {
        static let columns: [SummaryTable.Column] = [("cost", "cost")]

        static func section(_ scenario: String, table: SummaryTable) -> String {
            let ranked = table.variants.sorted { table.median($0, "cost") < table.median($1, "cost") }
            return "\n\(scenario)\n" + table.render(ranked) { i, _ in "\(i + 1)" }
        }
    }

    private func record(_ scenario: String, _ variant: String, seed: UInt64, _ value: Double) -> ResultRecord {
        ResultRecord(
            runID: "r",
            workload: "w",
            scenario: scenario,
            variant: variant,
            mode: "sim",
            seed: seed,
            repetition: 0,
            metric: "cost",
            value: value,
            unit: "ms",
            host: "h"
        )
    }

    private var records: [ResultRecord] {
        [
            record("a", "slow", seed: 1, 5), record("a", "slow", seed: 2, 7), record("a", "fast", seed: 1, 1),
            record("a", "fast", seed: 2, 1), record("c", "only", seed: 1, 3),
        ]
    }

    func testOneSectionPerListedScenarioWithSummariesInTheGivenOrder() throws {
        let text = ByCost.render(records: records, scenarios: ["c", "empty", "a"])
        let headings = text.split(separator: "\n").filter { ["a", "c", "empty"].contains(String($0)) }
        XCTAssertEqual(headings, ["c", "a"], "a scenario with no summaries has no section; the order is the caller's")
        XCTAssertEqual(text, ByCost.render(summaries: Statistics.summarize(records), scenarios: ["c", "empty", "a"]))
    }

    func testEachSectionIsRankedByTheConformingType() throws {
        let text = ByCost.render(records: records, scenarios: ["a"])
        let rows = text.split(separator: "\n").filter { $0.contains("fast") || $0.contains("slow") }
        XCTAssertEqual(rows.count, 2, text)
        XCTAssertTrue(rows[0].hasPrefix("1") && rows[0].contains("fast"), text)
        XCTAssertTrue(rows[1].hasPrefix("2") && rows[1].contains("slow") && rows[1].hasSuffix("6.00 (5.00–7.00)"), text)
        XCTAssertFalse(text.contains("only"), "a scenario not asked for stays out")
    }
}
