/// Signal's 2018 `LRUCache` (SignalMessaging/utils/LRUCache.swift, 08ca4fdb), as written: a
/// dictionary plus an order array that every `get` hit and every `set` rebuilds with
/// `filter { $0 != key }` and `append` — O(n) time and a fresh array allocation per operation.
///
/// No lock (callers had to confine it to one thread) and no process-dependent size: the
/// notification service extension did not exist yet, so every process gets `maxSize`. It is
/// cleared on memory warnings only (see `LifecycleRule.signal2018`).
package final class Signal2018Cache<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    private var cacheMap: [Key: Value] = [:]
    private var cacheOrder: [Key] = []

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package var count: Int { cacheMap.count }

    private func updateCacheOrder(_ key: Key) {
        cacheOrder = cacheOrder.filter { $0 != key }
        cacheOrder.append(key)
    }

    package func get(_ key: Key) -> Value? {
        guard let value = cacheMap[key] else { return nil }
        updateCacheOrder(key)
        return value
    }

    /// As in 2018: insert, re-order, then evict from the front while over `maxSize`. With
    /// `maxSize` 0 the entry is inserted and evicted again at once.
    package func set(_ key: Key, _ value: Value) {
        cacheMap[key] = value
        updateCacheOrder(key)
        while cacheOrder.count > capacity {
            let stale = cacheOrder.removeFirst()
            cacheMap.removeValue(forKey: stale)
        }
    }

    package func clear() {
        cacheMap.removeAll()
        cacheOrder.removeAll()
    }

    /// Keys from least to most recently used (tests).
    package var order: [Key] { cacheOrder }
}
