import Locking
import XCTest

/// `UncontendedLoop`, the public entry the micro-benchmarks package uses.
final class UncontendedLoopTests: XCTestCase {
    func testEverySupportedPairRunsAloneWithoutLosingUpdates() {
        for variant in LockVariant.builtIn {
            for operation in ContentionOperation.allCases {
                guard var loop = UncontendedLoop(variant: variant, operation: operation) else {
                    XCTAssertFalse(variant.supports(operation), "\(variant.name) \(operation.name)")
                    continue
                }
                loop.run(1_000)
                loop.run(24)
                XCTAssertTrue(loop.isConsistent, "\(variant.name) \(operation.name)")
            }
        }
    }

    func testIncrementTallyCountsOperations() {
        var loop = UncontendedLoop(variant: .pthreadMutex, operation: .increment)!
        XCTAssertEqual(loop.run(10), 10)
        XCTAssertEqual(loop.run(5), 15)
    }
}
