import XCTest

@testable import Caching

/// The reference LRU, checked against two implementations that share nothing with it.
final class LRUSemanticsTests: XCTestCase {
    func testRecencyAndEviction() {
        let c = LinkedLRUCache<String, Int>(capacity: 3)
        c.setABC()
        XCTAssertEqual(c.get("a"), 1)  // a is now most recent
        c.set("d", 4)  // evicts b, the least recent
        XCTAssertNil(c.get("b"))
        XCTAssertEqual(c.recencyOrder, ["d", "a", "c"])
        c.set("c", 30)  // replace refreshes recency
        XCTAssertEqual(c.recencyOrder, ["c", "d", "a"])
        XCTAssertEqual(c.count, 3)
        c.clear()
        XCTAssertEqual(c.count, 0)
        XCTAssertNil(c.get("a"))
    }

    func testMatchesNaiveLRUAndStackDistanceReference() {
        for (capacity, seed) in [(1, 1), (7, 2), (64, 3), (300, 4)] as [(Int, UInt64)] {
            let keys = TestTraces.zipf(count: 4000, keys: 500, seed: seed)
            let clears: Set<Int> = [1000, 2500]
            let hits = TestTraces.replay(LinkedLRUCache<Int, Int>(capacity: capacity), keys, clears: clears)
            XCTAssertEqual(hits, TestTraces.naiveLRUHits(keys, capacity: capacity, clears: clears), "capacity \(capacity)")
            XCTAssertEqual(hits.filter { $0 }.count, StackDistanceReference.hits(keys: keys, capacity: capacity, clears: clears))
        }
    }

    /// The check can fail: a FIFO (which ignores hits) disagrees with the reference.
    func testReferenceDetectsANonLRU() {
        let keys = TestTraces.zipf(count: 4000, keys: 500, seed: 9)
        let fifo = TestTraces.replay(FIFOCache<Int, Int>(capacity: 50), keys).filter { $0 }.count
        XCTAssertNotEqual(fifo, StackDistanceReference.hits(keys: keys, capacity: 50))
    }

    func testZeroCapacityNeverHits() {
        let keys = TestTraces.zipf(count: 500, keys: 20, seed: 1)
        XCTAssertEqual(TestTraces.replay(LinkedLRUCache<Int, Int>(capacity: 0), keys).filter { $0 }.count, 0)
        XCTAssertEqual(StackDistanceReference.hits(keys: keys, capacity: 0), 0)
    }
}
