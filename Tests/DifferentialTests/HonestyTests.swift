import Caching
import Differential
import FanOut
import Invalidation
import Lifecycle
import Measurement
import Readiness
import Simulation
import Throttling
import Timekeeping
import XCTest

/// The checks that make a differential verdict worth trusting: a variant never differs from
/// itself, a user's faithful copy never differs from the built-in, and known-different pairs are
/// found in nearly every seed with small minimal cases. The almost-copies are the controls: a
/// one-rule change to a user's copy must be caught.
final class HonestyTests: XCTestCase {
    static let seeds: [UInt64] = Array(1...20)

    /// Seeds (of `seeds`) in which a run of `cases` cases found a divergence, and the largest
    /// minimal case among them.
    func found<Case: DifferentialCase>(
        _ engine: DifferentialEngine<Case>,
        cases: Int,
        seeds: [UInt64] = seeds
    ) -> (found: Int, largestMinimal: Int) {
        var found = 0
        var largest = 0
        for seed in seeds {
            let outcome = engine.run(cases: cases, seed: seed)
            if let m = outcome.minimal {
                found += 1
                largest = max(largest, m.size)
                // The minimal case still diverges, and so does the case its seed regenerates.
                XCTAssertNotNil(engine.difference(m.input))
                XCTAssertNotNil(engine.difference(DifferentialEngine<Case>.generate(index: m.caseIndex, seed: seed).input))
            }
        }
        return (found, largest)
    }

    func testEveryBuiltInThrottlerAgreesWithItself() {
        for v in ThrottlerVariant.builtIn {
            XCTAssertEqual(found(DifferentialEngine<ThrottleCase>(a: v, b: v), cases: 30, seeds: [1, 2, 3]).found, 0, v.name)
        }
    }

    func testEveryBuiltInCoordinatorAgreesWithItself() {
        for v in ReadinessVariant.builtIn where v.hasSimForm {
            XCTAssertEqual(found(DifferentialEngine<ReadinessCase>(a: v, b: v), cases: 30, seeds: [1, 2, 3]).found, 0, v.name)
        }
    }

    func testEveryBuiltInCacheAgreesWithItself() {
        for v in CacheVariant.builtIn {
            XCTAssertEqual(found(DifferentialEngine<CacheCase>(a: v, b: v), cases: 100, seeds: [1, 2, 3]).found, 0, v.name)
        }
    }

    func testEveryBuiltInLifecycleStrategyAgreesWithItselfAndNaiveDiffersFromSignal() {
        for v in LifecycleVariant.builtIn {
            XCTAssertEqual(found(DifferentialEngine<LifecycleCase>(a: v, b: v), cases: 30, seeds: [1, 2, 3]).found, 0, v.name)
        }
        // Control: a strategy that does everything at launch on main differs from Signal's.
        let registry = VariantRegistry(builtIn: LifecycleVariant.builtIn)
        let engine = DifferentialEngine<LifecycleCase>(a: registry.named("naive")!, b: registry.named("signal")!)
        XCTAssertGreaterThanOrEqual(found(engine, cases: 30).found, 18)
    }

    func testEveryBuiltInFanOutStrategyAgreesWithItselfAndSequentialDiffersFromAsyncLet() {
        for v in FanOutVariant.builtIn {
            XCTAssertEqual(found(DifferentialEngine<GroupCase>(a: v, b: v), cases: 10, seeds: [1, 2]).found, 0, v.name)
        }
        // Control: one call after another differs from calls in parallel.
        let registry = VariantRegistry(builtIn: FanOutVariant.builtIn)
        let engine = DifferentialEngine<GroupCase>(a: registry.named("sequential")!, b: registry.named("async-let")!)
        XCTAssertGreaterThanOrEqual(found(engine, cases: 10).found, 18)
    }

    func testEveryClockSourceAgreesWithItselfAndRealtimeDiffersFromMonotonic() {
        for v in ClockKind.builtIn {
            XCTAssertEqual(found(DifferentialEngine<ClockCase>(a: v, b: v), cases: 8, seeds: [1]).found, 0, v.name)
        }
        // Control: a wall clock that is stepped differs from a monotonic one.
        let engine = DifferentialEngine<ClockCase>(a: .realtime, b: .monotonic)
        XCTAssertGreaterThanOrEqual(found(engine, cases: 8).found, 18)
    }

    func testEveryInvalidationDesignAgreesWithItselfAndNoInvalidationDiffersFromSignal() {
        for v in InvalidationVariant.builtIn {
            XCTAssertEqual(found(DifferentialEngine<InvalidationCase>(a: v, b: v), cases: 20, seeds: [1, 2]).found, 0, v.info.name)
        }
        // Control: the design that never invalidates differs from Signal's.
        let engine = DifferentialEngine<InvalidationCase>(a: .signal, b: .noInvalidation)
        XCTAssertGreaterThanOrEqual(found(engine, cases: 10).found, 18)
    }

    func testUserCopiesOfThrottlersAgreeAndTheirAlmostCopiesAreCaught() throws {
        var registry = VariantRegistry.throttlers
        try registry.register(ThrottlerVariant(name: "my-immediate", origin: .user, summary: "a copy") { _ in UserImmediate() })
        try registry.register(ThrottlerVariant(name: "my-fixed-rate", origin: .user, summary: "a copy") { _ in UserFixedRate() })
        try registry.register(
            ThrottlerVariant(name: "my-drifting", origin: .user, summary: "one rule changed") { _ in UserFixedRate(drifts: true) }
        )
        func engine(_ a: String, _ b: String) -> DifferentialEngine<ThrottleCase> {
            DifferentialEngine(a: registry.named(a)!, b: registry.named(b)!)
        }
        XCTAssertEqual(found(engine("immediate", "my-immediate"), cases: 40).found, 0)
        XCTAssertEqual(found(engine("fixed-rate", "my-fixed-rate"), cases: 40).found, 0)
        // Control: a timer that drifts by the main thread's lateness is caught.
        XCTAssertGreaterThanOrEqual(found(engine("fixed-rate", "my-drifting"), cases: 40).found, 18)
    }

    func testUserCopyOfSignalReadinessAgreesAndItsAlmostCopyIsCaught() throws {
        var registry = VariantRegistry(builtIn: ReadinessVariant.builtIn)
        try registry.register(ReadinessVariant(name: "my-signal", origin: .user, summary: "a copy") { UserSignalReadiness(session: $0) })
        try registry.register(
            ReadinessVariant(name: "my-lifo", origin: .user, summary: "one rule changed") { UserSignalReadiness(session: $0, lifo: true) }
        )
        let copy = DifferentialEngine<ReadinessCase>(a: registry.named("signal")!, b: registry.named("my-signal")!)
        XCTAssertEqual(found(copy, cases: 100).found, 0)
        let almost = DifferentialEngine<ReadinessCase>(a: registry.named("signal")!, b: registry.named("my-lifo")!)
        XCTAssertGreaterThanOrEqual(found(almost, cases: 100).found, 18)
    }

    func testUserCopyOfLRUAgreesAndItsAlmostCopyIsCaught() throws {
        var registry = VariantRegistry(builtIn: CacheVariant.builtIn)
        try registry.register(
            CacheVariant(
                name: "my-lru",
                origin: .user,
                summary: "a copy",
                sim: { c, _ in UserLRU<Int>(capacity: c) },
                live: { c, _ in UserLRU<CachedValue>(capacity: c) }
            )
        )
        try registry.register(
            CacheVariant(
                name: "my-no-refresh",
                origin: .user,
                summary: "one rule changed",
                sim: { c, _ in UserLRU<Int>(capacity: c, refreshes: false) },
                live: { c, _ in UserLRU<CachedValue>(capacity: c, refreshes: false) }
            )
        )
        XCTAssertEqual(found(DifferentialEngine<CacheCase>(a: registry.named("lru")!, b: registry.named("my-lru")!), cases: 300).found, 0)
        let almost = DifferentialEngine<CacheCase>(a: registry.named("lru")!, b: registry.named("my-no-refresh")!)
        XCTAssertGreaterThanOrEqual(found(almost, cases: 300).found, 18)
    }

    /// immediate vs fixed-rate: found in ≥ 90 % of seeds, minimal case at most 5 commits.
    func testImmediateAgainstFixedRateIsFoundWithASmallCase() {
        let engine = DifferentialEngine<ThrottleCase>(a: .builtIn("immediate"), b: .builtIn("fixed-rate"))
        let (found, largest) = found(engine, cases: 50)
        XCTAssertGreaterThanOrEqual(found, 18)
        XCTAssertLessThanOrEqual(largest, 5)
    }

    /// signal vs signal-2021-lifo: found in ≥ 90 % of seeds, minimal case at most 12 events.
    func testSignalAgainstLIFOIsFoundWithASmallCase() {
        let registry = VariantRegistry(builtIn: ReadinessVariant.builtIn)
        let engine = DifferentialEngine<ReadinessCase>(a: registry.named("signal")!, b: registry.named("signal-2021-lifo")!)
        let (found, largest) = found(engine, cases: 50)
        XCTAssertGreaterThanOrEqual(found, 18)
        XCTAssertLessThanOrEqual(largest, 12)
    }

    /// lru vs fifo: found in ≥ 90 % of seeds, minimal case at most 12 operations.
    func testLRUAgainstFIFOIsFoundWithASmallCase() {
        let registry = VariantRegistry(builtIn: CacheVariant.builtIn)
        let engine = DifferentialEngine<CacheCase>(a: registry.named("lru")!, b: registry.named("fifo")!)
        let (found, largest) = found(engine, cases: 200)
        XCTAssertGreaterThanOrEqual(found, 18)
        XCTAssertLessThanOrEqual(largest, 12)
    }
}
