import Caching
import FanOut
import Invalidation
import Lifecycle
import Locking
import Measurement
import Readiness
import Throttling
import Timekeeping
import XCTest

/// docs/your-own-variant.md's contract table lists exactly the rules the roles declare, each once:
/// the table is one source with the code (each role's own tests check its rules are listed; this
/// one also catches a row no rule declares any more, or a statement edited on one side only).
final class ContractTableTests: XCTestCase {
    static let declared: [ContractRule] =
        ReadinessContract.rules + CacheContract.rules + ThrottleContract.rules + FanOutContract.rules
        + TimingClientContract.rules + LifecycleContract.rules + LockContract.rules + InvalidationContract.rules

    func testTheTableListsExactlyTheDeclaredRules() throws {
        let listed = ContractTable.listedRules(in: try ContractTable.page(besideTest: #filePath))
        XCTAssertEqual(Set(listed).count, listed.count, "a row listed twice")
        XCTAssertEqual(Set(listed).subtracting(Self.declared), [], "rows no rule declares")
        XCTAssertEqual(Set(Self.declared).subtracting(listed), [], "rules the table does not list")
    }

    /// The control: a row whose statement drifted, and a table that lost a row, are both seen.
    func testADriftedTableIsCaught() throws {
        let page = try ContractTable.page(besideTest: #filePath)
        let rule = CacheContract.countWithinCapacity
        let drifted = ContractTable.listedRules(in: page.replacingOccurrences(of: rule.tableRow, with: "| cache | 0 ≤ count |"))
        XCTAssertFalse(drifted.contains(rule))
        XCTAssertTrue(drifted.contains(ContractRule(role: "cache", statement: "0 ≤ count")))
        XCTAssertEqual(ContractTable.listedRules(in: page).count, Self.declared.count)
    }
}
