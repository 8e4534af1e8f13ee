import XCTest

@testable import Caching

/// Each generation of Signal's cache, pinned to what its code does.
final class SignalGenerationTests: XCTestCase {
    /// 2018 (08ca4fdb): set appends to the order array, a hit moves the key to the end, and an
    /// overfull set removes the *first* key of the array.
    func test2018Timeline() {
        let c = Signal2018Cache<String, Int>(capacity: 3)
        c.setABC()
        XCTAssertEqual(c.order, ["a", "b", "c"])
        XCTAssertEqual(c.get("a"), 1)
        XCTAssertEqual(c.order, ["b", "c", "a"])
        c.set("d", 4)
        XCTAssertEqual(c.order, ["c", "a", "d"])
        XCTAssertNil(c.get("b"))
        XCTAssertEqual(c.order, ["c", "a", "d"], "a miss does not touch the order")
    }

    /// 2018 has no size guard: with maxSize 0 a set inserts and evicts at once.
    func test2018ZeroSizeInsertsAndEvicts() {
        let c = Signal2018Cache<Int, Int>(capacity: 0)
        c.set(1, 1)
        XCTAssertNil(c.get(1))
        XCTAssertEqual(c.count, 0)
    }

    /// 2021: `maxSize > 0` guard ("Using disabled cache."): set does nothing.
    func test2021DisabledCacheIgnoresSets() {
        let c = Signal2021Cache<Int, Int>(capacity: 0)
        c.set(1, 1)
        XCTAssertNil(c.get(1))
        XCTAssertEqual(c.count, 0)
    }

    /// The simulation steps the O(n) generations on the O(1) LRU: this is the proof that they
    /// hold exactly the same entries, read by read.
    func testOrderArrayGenerationsBehaveExactlyLikeLRU() {
        for (capacity, seed) in [(1, 1), (32, 2), (256, 3)] as [(Int, UInt64)] {
            let keys = TestTraces.zipf(count: 3000, keys: 600, seed: seed)
            let lru = TestTraces.replay(LinkedLRUCache<Int, Int>(capacity: capacity), keys, clears: [1500])
            XCTAssertEqual(TestTraces.replay(Signal2018Cache<Int, Int>(capacity: capacity), keys, clears: [1500]), lru)
            XCTAssertEqual(TestTraces.replay(Signal2021Cache<Int, Int>(capacity: capacity), keys, clears: [1500]), lru)
        }
    }

    /// `isNSE ? nseMaxSize : maxSize` from 2021 on; 2018 predates it; the share extension gets maxSize.
    func testSizingRule() {
        let p = CacheProfile.profileFetch
        XCTAssertEqual(CacheVariant.signal2021.capacity(for: p, in: .nse), 4000)
        XCTAssertEqual(CacheVariant.signal2021.capacity(for: p, in: .mainApp), 16000)
        XCTAssertEqual(CacheVariant.signal2021.capacity(for: p, in: .shareExtension), 16000)
        XCTAssertEqual(CacheVariant.lru.capacity(for: .thread, in: .nse), 0)
        XCTAssertEqual(CacheVariant.signal2018.capacity(for: .thread, in: .nse), 32)
    }

    /// Which events clear which generation, in which process.
    func testLifecycleRules() {
        let optedIn = CacheProfile.thread, optedOut = CacheProfile.profileFetch
        for context in ProcessContext.allCases {
            XCTAssertTrue(LifecycleRule.signal2018.clears(on: .memoryWarning, in: context, profile: optedOut))
            XCTAssertFalse(LifecycleRule.signal2018.clears(on: .background, in: context, profile: optedIn))
            XCTAssertTrue(LifecycleRule.signal2021.clears(on: .memoryWarning, in: context, profile: optedOut))
            XCTAssertTrue(LifecycleRule.signal2021.clears(on: .background, in: context, profile: optedOut))
            XCTAssertFalse(
                LifecycleRule.current.clears(on: .memoryWarning, in: context, profile: optedIn),
                "no memory-warning handler today"
            )
            XCTAssertEqual(LifecycleRule.current.clears(on: .background, in: context, profile: optedIn), context == .mainApp)
            XCTAssertFalse(LifecycleRule.current.clears(on: .background, in: context, profile: optedOut))
        }
    }

    /// A whole simulated timeline: a background then a memory warning reach each generation.
    func testSimulatedLifecycleClears() {
        let keys = TestTraces.zipf(count: 3000, keys: 200, seed: 5)
        let trace = AccessTrace(keys: keys, events: [(1000, .background), (2000, .memoryWarning)], interval: .milliseconds(5))
        func clears(_ v: CacheVariant, _ c: ProcessContext) -> Int {
            CacheSimulation.run(variant: v, trace: trace, profile: .thread, context: c, seed: 1).clears
        }
        XCTAssertEqual(clears(.signal2018, .mainApp), 1)
        XCTAssertEqual(clears(.signal2021, .mainApp), 2)
        XCTAssertEqual(clears(.signal2021, .shareExtension), 2)
        XCTAssertEqual(clears(.lru, .mainApp), 1)
        XCTAssertEqual(clears(.lru, .shareExtension), 0)
        XCTAssertEqual(clears(.s3fifo, .nse), 0)
        let nse = CacheSimulation.run(variant: .signal2021, trace: trace, profile: .thread, context: .nse, seed: 1)
        XCTAssertEqual(nse.hits, 0, "nseMaxSize 0: every read misses")
        XCTAssertEqual(nse.reads, 3000)
    }
}
