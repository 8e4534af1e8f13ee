import Foundation
import Measurement
import XCTest

@testable import Locking

/// The lock contract's probe catches a lock without mutual exclusion every time, and never
/// accuses one that has it: 20 runs each, on whatever else the machine is doing.
final class ExclusionProbeTests: XCTestCase {
    func testALockWithoutExclusionIsCaughtEveryTime() {
        for run in 0..<20 {
            let lock = UnsynchronizedLock()
            XCTAssertNotNil(ExclusionProbe().run { body in lock.withLock(body) }, "run \(run)")
        }
    }

    /// The control: the same probe on locks that exclude never finds two holders.
    func testLocksThatExcludeAreNeverAccused() {
        for run in 0..<20 {
            let mutex = PThreadMutexLock(), nslock = FoundationLock()
            XCTAssertNil(ExclusionProbe().run { body in mutex.withLock(body) }, "pthread-mutex run \(run)")
            XCTAssertNil(ExclusionProbe().run { body in nslock.withLock(body) }, "nslock run \(run)")
        }
    }

    /// Every built-in synchronized variant passes; the declared unsynchronized control is caught
    /// (and exempt from the contract: the item does not check it).
    func testBuiltInVariants() throws {
        for v in LockVariant.builtIn {
            guard let probe = v.targets.exclusion else { continue }
            if v.isSynchronized { XCTAssertNil(probe(), v.name) } else { XCTAssertNotNil(probe(), v.name) }
        }
    }

    func testTheRuleIsInTheDocsTable() throws {
        XCTAssertEqual(try ContractTable.undocumented(LockContract.rules, besideTest: #filePath), [])
    }
}
