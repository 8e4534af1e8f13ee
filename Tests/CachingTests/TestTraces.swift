import Simulation

@testable import Caching

/// Small seeded traces for the tests, and an LRU written the slow, obvious way (an array in
/// recency order) as a second independent reference.
enum TestTraces {
    static func zipf(count: Int, keys: Int, skew: Double = 0.9, seed: UInt64) -> [Int] {
        var g = SeededGenerator(seed: seed)
        let z = ZipfSampler(n: keys, skew: skew)
        return (0..<count).map { _ in z.next(&g) }
    }

    /// Read-through replay: get, and set on a miss. Returns the hit of every read.
    static func replay(_ cache: some CountBoundedCache<Int, Int>, _ keys: [Int], clears: Set<Int> = []) -> [Bool] {
        keys.enumerated().map { i, k in
            if clears.contains(i) { cache.clear() }
            if cache.get(k) != nil { return true }
            cache.set(k, k)
            return false
        }
    }

    /// The naive LRU: most recent last; evict the first.
    static func naiveLRUHits(_ keys: [Int], capacity: Int, clears: Set<Int> = []) -> [Bool] {
        var order: [Int] = []
        return keys.enumerated().map { i, k in
            if clears.contains(i) { order.removeAll() }
            if let at = order.firstIndex(of: k) {
                order.remove(at: at)
                order.append(k)
                return true
            }
            guard capacity > 0 else { return false }
            order.append(k)
            if order.count > capacity { order.removeFirst() }
            return false
        }
    }
}
