import Simulation
import Synchronization
import XCTest

@testable import Locking

/// Every synchronized strategy keeps every update, for every operation it supports. These run real
/// threads for a few milliseconds; they assert counts, never speed.
final class NoLostUpdatesTests: XCTestCase {
    static let synchronized = LockVariant.builtIn.filter(\.isSynchronized)

    func runner(duration: Double = 0.02) -> ContentionRunner {
        ContentionRunner(
            clock: SystemMonotonicClock(),
            calibration: SpinCalibration(nanosecondsPerIteration: 1),
            settings: ContentionSettings(duration: duration, warmup: 0, cpuCount: 2, probeDuration: 0, batch: 8)
        )
    }

    func testNoLostUpdatesForEverySynchronizedStrategyAndOperation() throws {
        let runner = runner()
        var pairs = 0
        for variant in Self.synchronized {
            for operation in ContentionOperation.allCases where variant.supports(operation) {
                let cell = ContentionCell(operation: operation, threads: 4)
                let sample = try runner.measure(cell, variant: variant, seed: 7)
                XCTAssertEqual(
                    sample.lostUpdates,
                    0,
                    "\(variant.name) \(operation.name): expected \(sample.expectedTotal), found \(sample.observedTotal)"
                )
                XCTAssertEqual(sample.threadOperations.count, 4)
                XCTAssertTrue(sample.threadOperations.allSatisfy { $0 > 0 }, "every thread ran at least one batch")
                pairs += 1
            }
        }
        // 6 lock strategies × 7 operations, signal-global-lock on 6 (no dictionary-update), atomic on
        // 5 (the counter-like ones and different-atomics), the C references on increment.
        XCTAssertEqual(pairs, 6 * 7 + 6 + 5 + 2, "every supported (strategy, operation) pair ran")
    }

    func testNoLostUpdatesWithWorkInsideAndBetween() throws {
        let runner = runner()
        let work = try XCTUnwrap(WorkAmount(parsing: "50ns"))
        for variant in [LockVariant.pthreadMutex, .dispatchQueue, .spinlock, .signalGlobalLock, .atomic, .cPthreadMutex] {
            for operation in [ContentionOperation.increment, .transition, .arrayAppendDrain, .differentAtomics]
            where variant.supports(operation) {
                let cell = ContentionCell(operation: operation, threads: 3, csWork: work, gapWork: work)
                let sample = try runner.measure(cell, variant: variant, seed: 3)
                XCTAssertEqual(sample.lostUpdates, 0, "\(variant.name) \(operation.name) with work")
            }
        }
    }

    /// The warm-up rides on the first repetition's threads: its operations reach the
    /// shared value and the lost-update check (the tallies count them), but not the measured
    /// operations. The control: without a warm-up the increments are exactly the measured ones.
    func testAnInRunWarmUpKeepsEveryUpdateAndIsNotMeasured() throws {
        let runner = runner(duration: 0.01)
        let cell = ContentionCell(operation: .increment, threads: 2)
        for variant in [LockVariant.pthreadMutex, .mutex, .atomic] {
            let warm = try runner.measure(cell, variant: variant, seed: 1, warmup: 0.01)
            XCTAssertEqual(warm.lostUpdates, 0, variant.name)
            // At least one unmeasured batch per thread (the warm-up loop runs before it checks the flag).
            XCTAssertGreaterThanOrEqual(warm.observedTotal, Int64(warm.totalOperations) + 2 * 8, variant.name)
            let cold = try runner.measure(cell, variant: variant, seed: 1, warmup: 0)
            XCTAssertEqual(cold.lostUpdates, 0, variant.name)
            XCTAssertEqual(cold.observedTotal, Int64(cold.totalOperations), "\(variant.name): no warm-up, every increment measured")
        }
    }

    func testTheExpectedTotalsAreNontrivial() throws {
        // A check that always compares 0 with 0 would prove nothing.
        let runner = runner()
        for operation in ContentionOperation.allCases {
            let sample = try runner.measure(ContentionCell(operation: operation, threads: 2), variant: .pthreadMutex, seed: 1)
            switch operation {
            case .increment, .readMostly, .transition, .dictionaryUpdate, .differentAtomics:
                XCTAssertGreaterThan(sample.expectedTotal, 0, operation.name)
            case .flag:
                XCTAssertTrue((0...1).contains(sample.expectedTotal), "sets − clears is 0 or 1")
            case .arrayAppendDrain:
                XCTAssertGreaterThanOrEqual(sample.expectedTotal, 0)
            }
        }
    }

    func testExactlyOneRacerWinsATransitionOrAFlag() throws {
        // Many threads race for the same transition (and the same flag) at once: exactly one may
        // succeed and all the others must fail. Repeated, each time from a common start line.
        struct Race: StrategyVisitor {
            var failures: [String] = []
            mutating func visit<Lock: LockStrategy>(_: Lock.Type, name: String) {
                for round in 0..<50 {
                    let state = AtomicState<Int, Lock>(0)
                    let flag = AtomicFlag<Lock>()
                    let transitionWins = Atomic<Int>(0)
                    let flagWins = Atomic<Int>(0)
                    _ = try? ThreadTeam.race(count: 4) {
                        if state.transition(from: 0, to: 1) { transitionWins.add(1, ordering: .relaxed) }
                        if flag.tryToSetFlag() { flagWins.add(1, ordering: .relaxed) }
                    }
                    if transitionWins.load(ordering: .relaxed) != 1 || state.state != 1 {
                        failures.append("\(name) round \(round): \(transitionWins.load(ordering: .relaxed)) transitions won")
                    }
                    if flagWins.load(ordering: .relaxed) != 1 || !flag.isSet {
                        failures.append("\(name) round \(round): \(flagWins.load(ordering: .relaxed)) flag sets won")
                    }
                }
            }
        }
        var race = Race()
        SynchronizedStrategies.forEach(&race)
        XCTAssertEqual(race.failures, [])
    }

    func testUnsupportedPairsAreRefusedNotRun() {
        XCTAssertThrowsError(
            try runner().measure(ContentionCell(operation: .dictionaryUpdate, threads: 2), variant: .unsynchronized, seed: 1)
        )
        XCTAssertThrowsError(try runner().measure(ContentionCell(operation: .flag, threads: 2), variant: .cAtomic, seed: 1))
    }

    func testCoSchedulingProbeReportsAFraction() throws {
        let result = try CoSchedulingProbe(clock: SystemMonotonicClock()).run(seconds: 0.02)
        XCTAssertTrue((0...1).contains(result.fraction))
        XCTAssertGreaterThan(result.roundTrips, 0)
        XCTAssertGreaterThan(result.windowNanoseconds, 0)
    }

    func testPinnedRunsStillCount() throws {
        let settings = ContentionSettings(duration: 0.01, warmup: 0, pinning: true, cpuCount: 2, probeDuration: 0)
        let runner = ContentionRunner(
            clock: SystemMonotonicClock(),
            calibration: SpinCalibration(nanosecondsPerIteration: 1),
            settings: settings
        )
        let sample = try runner.measure(ContentionCell(operation: .increment, threads: 3), variant: .mutex, seed: 1)
        XCTAssertEqual(sample.lostUpdates, 0)
        // A container may not allow every CPU; failures are counted (and reported), never fatal.
        XCTAssertTrue((0...3).contains(sample.pinFailures))
    }

    func testPlansCoverTheMatrix() {
        let plan = ContentionPlan.defaultSlice
        XCTAssertEqual(plan.cells.count, 3 * 4 * 2)
        // increment: 8 variants; read-mostly and different-atomics: the 6 Swift ones (no C
        // reference for them).
        XCTAssertEqual(plan.pairCount(plan.cells), 2 * 4 * 8 + 2 * 4 * 6 + 2 * 4 * 6)
        XCTAssertEqual(ContentionPlan.full.cells.count, 7 * 4 * 3 * 3)
    }
}
