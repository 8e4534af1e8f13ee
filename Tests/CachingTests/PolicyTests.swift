import XCTest

@testable import Caching

final class PolicyTests: XCTestCase {
    /// A scan of one-time keys flushes an LRU's hot set; S3-FIFO keeps it in its main queue.
    func testS3FIFOResistsAScan() {
        let hot = Array(0..<20)
        var keys: [Int] = []
        for _ in 0..<5 { keys += hot }  // hot keys, each hit several times
        keys += Array(1000..<1200)  // one-time scan, 10x the cache
        keys += hot  // back to the hot set
        let tail = hot.count
        let lru = TestTraces.replay(LinkedLRUCache<Int, Int>(capacity: 25), keys).suffix(tail).filter { $0 }.count
        let s3 = TestTraces.replay(S3FIFOCache<Int, Int>(capacity: 25), keys).suffix(tail).filter { $0 }.count
        XCTAssertEqual(lru, 0)
        XCTAssertEqual(s3, 20)
    }

    /// A key evicted from the small queue and read again while remembered by the ghost queue is
    /// admitted straight to the main queue.
    func testS3FIFOGhostReadmits() {
        let c = S3FIFOCache<Int, Int>(capacity: 10)  // small queue: 1 entry
        for k in 0..<11 { c.set(k, k) }  // 10 fills; the 11th evicts key 0 to the ghost
        XCTAssertNil(c.get(0))
        c.set(0, 0)  // back from the ghost
        for k in 100..<120 { c.set(k, k) }  // one-time keys churn through the small queue
        XCTAssertEqual(c.get(0), 0, "a ghost-admitted key lives in the main queue")
        XCTAssertLessThanOrEqual(c.count, 10)
    }

    func testCapacityIsNeverExceeded() {
        let keys = TestTraces.zipf(count: 5000, keys: 2000, skew: 0.7, seed: 4)
        for cap in [1, 2, 10, 100] {
            let caches: [any CountBoundedCache<Int, Int>] = [
                LinkedLRUCache(capacity: cap), FIFOCache(capacity: cap), RandomEvictionCache(capacity: cap, seed: 1),
                S3FIFOCache(capacity: cap), CorelibsNSCacheModel(capacity: cap), Signal2018Cache(capacity: cap),
            ]
            for c in caches {
                for k in keys {
                    if c.get(k) == nil { c.set(k, k) }
                    XCTAssertLessThanOrEqual(c.count, cap, "\(type(of: c)) at \(cap)")
                }
            }
        }
    }

    func testFIFOIgnoresHits() {
        let c = FIFOCache<Int, Int>(capacity: 2)
        c.set(1, 1)
        c.set(2, 2)
        _ = c.get(1)
        c.set(3, 3)
        XCTAssertNil(c.get(1), "the oldest insertion goes, hit or not")
        XCTAssertEqual(c.get(2), 2)
    }

    /// The simulation is a function of the seed.
    func testSimulationIsDeterministic() {
        let scenario = CacheScenario.catalogue.first { $0.name == "chat-scroll" }!
        let trace = scenario.trace(count: 3000, seed: 7) { ZipfSampler(n: $0, skew: $1) }
        for v in CacheVariant.builtIn {
            let a = CacheSimulation.run(variant: v, trace: trace, profile: scenario.profile, context: .mainApp, seed: 7, reference: true)
            let b = CacheSimulation.run(variant: v, trace: trace, profile: scenario.profile, context: .mainApp, seed: 7, reference: true)
            XCTAssertEqual(a.observations, b.observations, v.name)
        }
        let again = scenario.trace(count: 3000, seed: 7) { ZipfSampler(n: $0, skew: $1) }
        XCTAssertEqual(trace.keys, again.keys)
        XCTAssertNotEqual(trace.keys, scenario.trace(count: 3000, seed: 8) { ZipfSampler(n: $0, skew: $1) }.keys)
    }

    /// Recovery after a clear, on a hand-made hit record.
    func testRewarmAnalysis() {
        // 600 hits, clear at 600, then 100 misses, then hits.
        let hits = Array(repeating: true, count: 600) + Array(repeating: false, count: 100) + Array(repeating: true, count: 1000)
        let r = RewarmAnalysis(hits: hits, clears: [600])
        // The first 500-read window with >= 90 % hits starts at 600 + 50.
        XCTAssertEqual(r.rewarmReads, 50)
        XCTAssertEqual(r.missStormReads, 50)
        XCTAssertEqual(r.unrecovered, 0)
        let never = RewarmAnalysis(hits: Array(repeating: true, count: 600) + Array(repeating: false, count: 600), clears: [600])
        XCTAssertEqual(never.unrecovered, 1)
        XCTAssertEqual(never.missStormReads, 600)
    }
}
