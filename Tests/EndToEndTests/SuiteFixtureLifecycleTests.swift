import Foundation
import Records
import XCTest

/// bench-lifecycle's open role end to end: `suite-fixture lifecycle` with a user's strategy.
final class SuiteFixtureLifecycleTests: XCTestCase {
    /// Live, a user's strategy gets rows of its own — `kill-during-save` labelled with its name,
    /// `user`, its durability as the factor — beside the durability strategies' reference rows
    /// (which, before, were the only live rows a run wrote).
    func testLiveWritesRowsLabelledWithTheUsersStrategy() throws {
        let output = try temporaryFolder("suite-fixture-lifecycle").path
        let r = try ExecutableRunner.run(
            "suite-fixture",
            [
                "lifecycle", "--mode", "live", "--variant", "fixture-rename", "--scenario", "everyday", "--sessions", "5", "--kills", "3",
                "--quiet", "--output", output,
            ]
        )
        XCTAssertEqual(r.status, 0, r.stderr)
        let d = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: output + "/lifecycle.json")))
        let live = d.records.filter { $0.scenario == "kill-during-save" }
        let mine = live.filter { $0.variant == "fixture-rename" }
        XCTAssertFalse(mine.isEmpty, "no live row of the user's strategy: \(Set(live.map(\.variant)))")
        XCTAssertEqual(Set(mine.map(\.origin)), ["user"])
        XCTAssertEqual(Set(mine.map { $0.factors["durability"] }), ["rename"])
        XCTAssertEqual(mine.first { $0.metric == "kills" }?.value, 3)
        XCTAssertEqual(mine.first { $0.metric == "corrupt_launches" }?.value, 0, "rename is atomic under a kill")
        // The references are still there, each labelled with its durability.
        XCTAssertEqual(
            Set(live.filter { $0.variant != "fixture-rename" }.map(\.variant)),
            ["in-place", "rename", "rename-fsync", "sqlite-wal"]
        )
        XCTAssertTrue(r.stdout.contains("fixture-rename"), r.stdout)
    }

    /// A user's strategy that breaks the lifecycle contract (a NaN purge share) fails its items
    /// with the rule and the first event, exit 70, and is left out of the results; the control,
    /// the same strategy with no purge (`fixture-rename`), is written beside it.
    func testAStrategyBreakingTheContractFailsItsItemsOnly() throws {
        let output = try temporaryFolder("suite-fixture-lifecycle-contract").path
        let r = try ExecutableRunner.run(
            "suite-fixture",
            ["lifecycle", "--quick", "--variant", "nan-purge,fixture-rename", "--scenario", "everyday", "--quiet", "--output", output]
        )
        XCTAssertEqual(r.status, 70, r.stderr)
        XCTAssertTrue(r.stderr.contains("nan-purge") && r.stderr.contains("broke the lifecycle contract"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cachePurgedInBackground nan"), r.stderr)
        let d = try RunDocument.decode(Data(contentsOf: URL(fileURLWithPath: output + "/lifecycle.json")))
        XCTAssertFalse(d.records.contains { $0.variant == "nan-purge" })
        XCTAssertTrue(d.records.contains { $0.variant == "fixture-rename" })
    }
}
