import Dispatch
import Simulation
import Synchronization
import XCTest

@testable import Locking

/// `signal-global-lock`: Signal's atomics as written (`SignalServiceKit/Util/Atomics.swift`) — one
/// process-wide lock, a throwing `transition` behind `tryToSetFlag`, stored-property values.
final class SignalGlobalLockTests: XCTestCase {
    func testAtomicValueSemantics() {
        let value = SignalAtomicValue<Int>(1)
        XCTAssertEqual(value.get(), 1)
        value.set(5)
        XCTAssertEqual(value.swap(7), 5, "swap returns the old value")
        XCTAssertEqual(value.map { $0 * 2 }, 14, "map returns the new value")
        XCTAssertEqual(
            value.update { v -> Int in
                v += 1
                return v * 10
            },
            150
        )
        XCTAssertEqual(value.get(), 15)
    }

    /// A transition from the wrong value throws `invalidTransition` and changes nothing.
    func testTransitionThrowsAndChangesNothing() {
        let value = SignalAtomicValue<Int>(3)
        XCTAssertThrowsError(try value.transition(from: 4, to: 5)) { error in
            XCTAssertEqual(error as? SignalAtomicError, .invalidTransition)
        }
        XCTAssertEqual(value.get(), 3)
        XCTAssertNoThrow(try value.transition(from: 3, to: 4))
        XCTAssertEqual(value.get(), 4)
    }

    /// `tryToSetFlag` / `tryToClearFlag` are the throwing transition caught into a Bool: false on
    /// a failed transition, true when this call changed the flag.
    func testFlagReturnsFalseOnAFailedTransition() {
        let flag = SignalAtomicBool(false)
        XCTAssertFalse(flag.tryToClearFlag(), "clearing a clear flag is a failed transition")
        XCTAssertTrue(flag.tryToSetFlag())
        XCTAssertFalse(flag.tryToSetFlag(), "setting a set flag is a failed transition")
        XCTAssertTrue(flag.get())
        var ran = false
        XCTAssertTrue(flag.tryToClearFlag(holding: { ran = true }))
        XCTAssertTrue(ran)
        XCTAssertFalse(flag.get())
    }

    func testArrayRemoveAllReturnsTheOldContents() {
        let array = SignalAtomicArray<Int>()
        array.append(1)
        array.append(2)
        XCTAssertEqual(array.count, 2)
        XCTAssertEqual(array.removeAll(), [1, 2])
        XCTAssertEqual(array.removeAll(), [])
        XCTAssertEqual(array.get(), [])
    }

    /// Exactly one of several racers wins the same transition and the same flag, 50 rounds.
    func testExactlyOneRacerWins() throws {
        for round in 0..<50 {
            let state = SignalAtomicValue<Int>(0)
            let flag = SignalAtomicBool(false)
            let transitionWins = Atomic<Int>(0)
            let flagWins = Atomic<Int>(0)
            try raceTogether {
                if (try? state.transition(from: 0, to: 1)) != nil { transitionWins.add(1, ordering: .relaxed) }
                if flag.tryToSetFlag() { flagWins.add(1, ordering: .relaxed) }
            }
            XCTAssertEqual(transitionWins.load(ordering: .relaxed), 1, "round \(round)")
            XCTAssertEqual(flagWins.load(ordering: .relaxed), 1, "round \(round)")
        }
    }

    /// No lost updates for every operation signal-global-lock runs, 4 threads, with and without work.
    func testNoLostUpdates() throws {
        let runner = ContentionRunner(
            clock: SystemMonotonicClock(),
            calibration: SpinCalibration(nanosecondsPerIteration: 1),
            settings: ContentionSettings(duration: 0.02, warmup: 0, cpuCount: 2, probeDuration: 0, batch: 8)
        )
        let work = try XCTUnwrap(WorkAmount(parsing: "50ns"))
        var ran: [String] = []
        for operation in ContentionOperation.allCases where LockVariant.signalGlobalLock.supports(operation) {
            for amount in [WorkAmount.none, work] {
                let cell = ContentionCell(operation: operation, threads: 4, csWork: amount, gapWork: amount)
                let sample = try runner.measure(cell, variant: .signalGlobalLock, seed: 5)
                XCTAssertEqual(sample.lostUpdates, 0, "\(operation.name): expected \(sample.expectedTotal), found \(sample.observedTotal)")
            }
            ran.append(operation.name)
        }
        XCTAssertEqual(ran, ["increment", "read-mostly", "flag", "transition", "array-append-drain", "different-atomics"])
        XCTAssertFalse(LockVariant.signalGlobalLock.supports(.dictionaryUpdate), "Signal has no atomic dictionary update")
    }

    /// Every wrapper made without a lock shares the one process-wide lock: while any one of them
    /// holds it, it is taken for all of them.
    func testDefaultWrappersShareOneProcessWideLock() {
        let a = SignalAtomicValue<Int>(0)
        let held = a.update { _ -> Bool in
            // Inside a's critical section the shared lock is taken, whichever wrapper asks.
            !SignalUnfairLock.sharedGlobal.tryLock()
        }
        XCTAssertTrue(held)
        XCTAssertTrue(SignalUnfairLock.sharedGlobal.tryLock(), "free again afterwards")
        SignalUnfairLock.sharedGlobal.unlock()
    }

    /// The cost `different-atomics` measures, as behaviour rather than time: thread A holds its own
    /// atomic's critical section; thread B then updates a *different* atomic. On per-object locks B
    /// finishes while A still holds its section (waited for up to 30 s, so a loaded machine cannot
    /// fail it); on Signal's shared lock B cannot finish until A leaves, so a 200 ms wait that
    /// ends without B is certain, not a race.
    func testDifferentAtomicsContendOnTheSharedLockOnly() {
        // Per-object locks: the generic wrapper on a pthread mutex each.
        let perObjectFinished = bFinishesWhileAHoldsItsOwnAtomic(
            within: .seconds(30),
            holdA: { inside in AtomicValue<Int, PThreadMutexLock>(0).update { _ in inside() } },
            updateB: { AtomicValue<Int, PThreadMutexLock>(0).update { $0 += 1 } }
        )
        XCTAssertTrue(perObjectFinished, "per-object locks: B's different atomic does not wait for A")
        // Signal's design: two different atomics, one sharedGlobal lock.
        let a = SignalAtomicValue<Int>(0), b = SignalAtomicValue<Int>(0)
        let sharedFinished = bFinishesWhileAHoldsItsOwnAtomic(
            within: .milliseconds(200),
            holdA: { inside in a.update { _ in inside() } },
            updateB: { b.update { $0 += 1 } }
        )
        XCTAssertFalse(sharedFinished, "sharedGlobal: B's different atomic waits for A's critical section")
        XCTAssertEqual(b.get(), 1, "and completes once A leaves")
    }

    /// Runs A (holding its critical section until released) and B on two threads; true when B
    /// finished within `within` while A was still inside. Always releases A and waits for B.
    func bFinishesWhileAHoldsItsOwnAtomic(
        within: DispatchTimeInterval,
        holdA: @escaping @Sendable (_ inside: () -> Void) -> Void,
        updateB: @escaping @Sendable () -> Void
    ) -> Bool {
        let aInside = DispatchSemaphore(value: 0)
        let releaseA = DispatchSemaphore(value: 0)
        let bDone = DispatchSemaphore(value: 0)
        let aThread = Thread {
            holdA {
                aInside.signal()
                releaseA.wait()
            }
        }
        aThread.start()
        aInside.wait()
        let bThread = Thread {
            updateB()
            bDone.signal()
        }
        bThread.start()
        let finishedWhileHeld = bDone.wait(timeout: .now() + within) == .success
        releaseA.signal()
        if !finishedWhileHeld {
            XCTAssertEqual(bDone.wait(timeout: .now() + .seconds(30)), .success, "B finishes once A leaves")
        }
        return finishedWhileHeld
    }
}
