import Foundation
import Measurement
import Simulation
import XCTest

@testable import Locking

/// The lock role as data: the suite's own variants keep what the closed enum said, and a user's
/// lock or whole wrapper (types of this test module, registered like a user's) runs every
/// operation it supports through the same runner, keeping every update — while a wrapper that
/// splits its update in two loses them (the check can fail).
final class LockRoleTests: XCTestCase {
    // NSLock rather than Synchronization.Mutex: ThreadSanitizer (scripts/tsan.sh) sees a
    // pthread mutex's ordering but not Mutex's uninstrumented futex path.
    final class TestLock: LockStrategy, @unchecked Sendable {
        let lock = NSLock()  // the lock itself
        init() {}
        func withLock<Result>(_ body: () -> Result) -> Result { lock.withLock(body) }
    }

    final class TestWrapper<Value>: AtomicWrapper, @unchecked Sendable {
        let lock = NSLock()
        var value: Value  // guarded by `lock`
        init(_ value: Value) { self.value = value }
        func withValue<Result>(_ body: (Value) -> Result) -> Result { lock.withLock { body(value) } }
        func update<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&value) } }
    }

    /// Reads, then writes, in two critical sections: concurrent updates overwrite each other.
    final class SplitUpdateWrapper: AtomicWrapper, @unchecked Sendable {
        let lock = NSLock()
        var value: UInt64  // guarded by `lock`
        init(_ value: UInt64) { self.value = value }
        func withValue<Result>(_ body: (UInt64) -> Result) -> Result { lock.withLock { body(value) } }
        func update<Result>(_ body: (inout UInt64) -> Result) -> Result {
            var copy = lock.withLock { value }
            let result = body(&copy)
            lock.withLock { value = copy }
            return result
        }
    }

    let lock = LockVariant(name: "test-lock", origin: .user, summary: "a Mutex", lock: TestLock.self)
    let wrapper = LockVariant(
        name: "test-wrapper",
        origin: .user,
        summary: "a Mutex-backed wrapper",
        wrapper: TestWrapper<UInt64>.self,
        array: TestWrapper<[UInt64]>.self,
        dictionary: TestWrapper<[Int: UInt64]>.self
    )
    let counterOnly = LockVariant(name: "test-counter", origin: .user, summary: "counter form only", wrapper: TestWrapper<UInt64>.self)
    let split = LockVariant(name: "split-update", origin: .user, summary: "loses updates", wrapper: SplitUpdateWrapper.self)

    func runner(duration: Double = 0.02) -> ContentionRunner {
        ContentionRunner(
            clock: SystemMonotonicClock(),
            calibration: SpinCalibration(nanosecondsPerIteration: 1),
            settings: ContentionSettings(duration: duration, warmup: 0, cpuCount: 2, probeDuration: 0, batch: 8)
        )
    }

    func testTheSuitesVariantsKeepTheirNamesOriginsAndOperations() {
        func names(_ o: VariantOrigin) -> [String] { LockVariant.builtIn.filter { $0.info.origin == o }.map(\.name) }
        XCTAssertEqual(names(.platform), ["pthread-mutex", "nslock", "dispatch-queue", "mutex", "spinlock", "pthread-mutex-adaptive"])
        XCTAssertEqual(names(.signal), ["signal-global-lock"])
        XCTAssertEqual(names(.reference), ["atomic", "unsynchronized", "c-pthread-mutex", "c-atomic"])
        XCTAssertEqual(
            LockVariant.defaultSlice.map(\.name),
            ["pthread-mutex", "nslock", "dispatch-queue", "mutex", "signal-global-lock", "atomic", "c-pthread-mutex", "c-atomic"]
        )
        let counterLike = ContentionOperation.allCases.filter(\.isCounterLike)
        XCTAssertEqual(LockVariant.cPthreadMutex.operations, [.increment])
        XCTAssertEqual(LockVariant.cAtomic.operations, [.increment])
        XCTAssertEqual(LockVariant.atomic.operations, counterLike + [.differentAtomics])
        XCTAssertEqual(LockVariant.unsynchronized.operations, counterLike)
        XCTAssertEqual(LockVariant.signalGlobalLock.operations, ContentionOperation.allCases.filter { $0 != .dictionaryUpdate })
        XCTAssertEqual(LockVariant.builtIn.filter { !$0.isSynchronized }.map(\.name), ["unsynchronized"])
        XCTAssertEqual(LockVariant.builtIn.filter(\.isReference).map(\.name), ["atomic", "unsynchronized", "c-pthread-mutex", "c-atomic"])
        XCTAssertEqual(LockVariant.atomic.cReference, "c-atomic")
        XCTAssertEqual(LockVariant.pthreadMutex.cReference, "c-pthread-mutex")
        XCTAssertNil(LockVariant.cPthreadMutex.cReference)
        XCTAssertEqual(lock.cReference, "c-pthread-mutex", "a user's lock is compared with the C mutex")
    }

    func testAUserLockAndWrapperKeepEveryUpdateInEveryOperationTheyRun() throws {
        let runner = runner()
        XCTAssertEqual(lock.operations, ContentionOperation.allCases)
        XCTAssertEqual(wrapper.operations, ContentionOperation.allCases)
        XCTAssertEqual(counterOnly.operations, ContentionOperation.allCases.filter { $0.isCounterLike || $0 == .differentAtomics })
        for variant in [lock, wrapper, counterOnly] {
            for operation in variant.operations {
                let sample = try runner.measure(ContentionCell(operation: operation, threads: 4), variant: variant, seed: 5)
                XCTAssertEqual(sample.lostUpdates, 0, "\(variant.name) \(operation.name)")
                XCTAssertTrue(sample.threadOperations.allSatisfy { $0 > 0 }, "\(variant.name) \(operation.name): every thread ran")
                if operation != .flag && operation != .arrayAppendDrain {
                    XCTAssertGreaterThan(
                        sample.expectedTotal,
                        0,
                        "\(variant.name) \(operation.name): a check of 0 against 0 proves nothing"
                    )
                }
            }
        }
        XCTAssertThrowsError(try runner.measure(ContentionCell(operation: .dictionaryUpdate, threads: 1), variant: counterOnly, seed: 1))
    }

    func testAWrapperThatSplitsItsUpdateLosesUpdates() throws {
        // Contention on 2 vCPUs comes and goes: run until the race shows, at most 50 times.
        let runner = runner(duration: 0.02)
        var lost: UInt64 = 0
        for seed in 1...50 where lost == 0 {
            lost = try runner.measure(ContentionCell(operation: .increment, threads: 4), variant: split, seed: UInt64(seed)).lostUpdates
        }
        XCTAssertGreaterThan(lost, 0, "the lost-update check must be able to fail on a user's wrapper")
    }

    func testAUserWrapperRunsThroughTheUncontendedLoop() throws {
        for operation in wrapper.operations {
            var loop = try XCTUnwrap(UncontendedLoop(variant: wrapper, operation: operation), operation.name)
            loop.run(1000)
            XCTAssertTrue(loop.isConsistent, operation.name)
        }
        XCTAssertNil(UncontendedLoop(variant: counterOnly, operation: .arrayAppendDrain))
    }

    func testASampleDecodesToTheRegisteredVariant() throws {
        LockVariant.publish([lock])
        let run = AtomicsWorkload.Run(
            variant: lock,
            repetition: 0,
            seed: 1,
            sample: ContentionSample(threadOperations: [1], elapsedNanoseconds: 1, expectedTotal: 1, observedTotal: 1)
        )
        let data = try JSONEncoder().encode(AtomicsWorkload.Sample(runs: [run]))
        let decoded = try JSONDecoder().decode(AtomicsWorkload.Sample.self, from: data)
        XCTAssertEqual(decoded.runs.first?.variant.name, "test-lock")
        XCTAssertEqual(decoded.runs.first?.variant.info.origin, .user)
        let unknown = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "test-lock", with: "never-registered").utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(AtomicsWorkload.Sample.self, from: unknown))
    }
}
