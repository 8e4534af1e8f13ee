import XCTest

@testable import Locking

/// What `PATTERNBENCH_INJECT_REGRESSION` swaps in: exactly one extra acquisition per four
/// operations, holding the cell's critical-section work, and every body run exactly once (lost
/// updates stay exact). Counts, not times.
final class InjectedSlowdownLockTests: XCTestCase {
    /// A base lock that counts its acquisitions (one worker thread in this test; the count is only
    /// touched while "held").
    final class CountingLock: LockStrategy, @unchecked Sendable {
        var acquisitions = 0
        init() {}
        func withLock<Result>(_ body: () -> Result) -> Result {
            acquisitions += 1
            return body()
        }
    }

    func testEveryFourthOperationTakesTheLockAgainWithTheCellsWork() {
        let lock = RegressionInjection.$criticalSectionIterations.withValue(37) { InjectedSlowdownLock<CountingLock>() }
        XCTAssertEqual(lock.heldWork, 37, "the cell's critical-section work, bound while the objects are made")
        var value = 0
        for _ in 0..<400 { lock.withLock { value += 1 } }
        XCTAssertEqual(value, 400, "every body ran exactly once")
        XCTAssertEqual(lock.base.acquisitions, 500, "400 operations + one extra acquisition per four")
    }

    /// The control: made outside a contention run (the uncontended loop, the micro-benchmarks) the
    /// extra acquisition holds no work, and a plain lock takes no extra acquisition at all.
    func testOutsideACellTheExtraAcquisitionIsEmptyAndAPlainLockHasNone() {
        XCTAssertEqual(InjectedSlowdownLock<CountingLock>().heldWork, 0)
        let plain = CountingLock()
        for _ in 0..<400 { plain.withLock {} }
        XCTAssertEqual(plain.acquisitions, 400)
    }
}
