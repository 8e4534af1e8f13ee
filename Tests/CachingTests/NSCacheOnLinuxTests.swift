import Foundation
import XCTest

@testable import Caching

/// Foundation's real NSCache on this platform, against the model the simulation uses.
final class NSCacheOnLinuxTests: XCTestCase {
    /// swift-corelibs NSCache with a countLimit evicts the entry just inserted: it freezes on its
    /// first N keys. (On Darwin it would keep recent keys; this is why it cannot stand in for iOS.)
    func testRealNSCacheFreezesOnItsFirstKeys() {
        let cache = FoundationNSCache<CachedValue>(capacity: 4)
        for k in 0..<10 { cache.set(k, CachedValue(id: k)) }
        XCTAssertEqual(cache.heldKeys(below: 10), [0, 1, 2, 3])
        _ = cache.get(0)
        cache.set(20, CachedValue(id: 20))
        XCTAssertEqual(cache.heldKeys(below: 21), [0, 1, 2, 3], "the newest entry is the one evicted")
        cache.clear()
        cache.set(7, CachedValue(id: 7))
        XCTAssertEqual(cache.heldKeys(below: 10), [7])
    }

    /// The model agrees with the real NSCache read by read on a seeded trace, and it is not an LRU.
    func testModelMatchesRealNSCache() {
        let keys = TestTraces.zipf(count: 3000, keys: 300, seed: 3)
        let real = FoundationNSCache<CachedValue>(capacity: 40)
        let realHits = keys.enumerated().map { i, k -> Bool in
            if i == 1500 { real.clear() }
            if real.get(k) != nil { return true }
            real.set(k, CachedValue(id: k))
            return false
        }
        let model = TestTraces.replay(CorelibsNSCacheModel<Int, Int>(capacity: 40), keys, clears: [1500])
        XCTAssertEqual(model, realHits)
        XCTAssertNotEqual(model, TestTraces.replay(LinkedLRUCache<Int, Int>(capacity: 40), keys, clears: [1500]))
    }

    /// Signal's wrapper guards `set` with countLimit > 0 (NSCache treats 0 as "no limit").
    func testZeroSizeWrapperStoresNothing() {
        let cache = FoundationNSCache<CachedValue>(capacity: 0)
        cache.set(1, CachedValue(id: 1))
        XCTAssertNil(cache.get(1))
    }
}
