import Foundation
import Measurement
import Synchronization
import XCTest

@testable import Locking

/// The lock contract's probe catches a lock without mutual exclusion every time, and never
/// accuses one that has it: 20 runs each, on whatever else the machine is doing.
final class ExclusionProbeTests: XCTestCase {
    /// One lock, with its exclusion switched on (the control) or off (the fault).
    final class SwitchableLock: LockStrategy, @unchecked Sendable {
        // The pthread mutex inside PThreadMutexLock is the synchronisation, when `excludes`.
        let mutex = PThreadMutexLock()
        let excludes: Bool

        init() { excludes = true }
        init(excludes: Bool) { self.excludes = excludes }

        func withLock<Result>(_ body: () -> Result) -> Result { excludes ? mutex.withLock(body) : body() }
    }

    func testALockWithoutExclusionIsCaughtEveryTime() {
        for run in 0..<20 {
            let broken = SwitchableLock(excludes: false), control = SwitchableLock(excludes: true)
            XCTAssertNotNil(ExclusionProbe().run { body in broken.withLock(body) }, "run \(run)")
            XCTAssertNil(ExclusionProbe().run { body in control.withLock(body) }, "control run \(run)")
        }
    }

    /// The second thread may reach the lock long after the first is inside (a loaded machine
    /// schedules it late): its first call comes 20 ms late here. The rounds after that still meet
    /// it; two threads that only took turns would have finished one side's entries by then.
    func testALateSecondThreadIsStillMet() {
        let broken = SwitchableLock(excludes: false)
        let calls = Atomic<Int>(0)
        let overlap = ExclusionProbe().run { body in
            if calls.add(1, ordering: .relaxed).newValue == 2 { usleep(20_000) }
            broken.withLock(body)
        }
        XCTAssertNotNil(overlap)
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
