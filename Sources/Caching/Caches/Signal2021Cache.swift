import Synchronization

/// Signal's 2021 `LRUCache`: the 2018 design (dictionary + order array, O(n) `filter` + `append`
/// per operation) behind a lock, with the process-dependent size `isNSE ? nseMaxSize : maxSize`
/// and a `maxSize == 0` guard that makes `set` a no-op (a disabled cache: every read misses).
///
/// Signal used an `os_unfair_lock` (`UnfairLock`); on Linux the closest is `Mutex` (a futex), which
/// like it does not spin for long and is not recursive.
package final class Signal2021Cache<Key: Hashable & Sendable, Value: Sendable>: CountBoundedCache, @unchecked Sendable {
    // @unchecked: `state` is only touched inside `lock.withLock`.
    private struct State {
        var cacheMap: [Key: Value] = [:]
        var cacheOrder: [Key] = []
    }

    package let capacity: Int
    private let lock = Mutex(())
    private var state = State()

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package var count: Int { lock.withLock { _ in state.cacheMap.count } }

    private func markKeyAsFirst(_ key: Key) {
        state.cacheOrder = state.cacheOrder.filter { $0 != key }
        state.cacheOrder.append(key)
    }

    package func get(_ key: Key) -> Value? {
        lock.withLock { _ in
            guard let value = state.cacheMap[key] else { return nil }
            markKeyAsFirst(key)
            return value
        }
    }

    package func set(_ key: Key, _ value: Value) {
        lock.withLock { _ in
            guard capacity > 0 else { return }  // "Using disabled cache."
            state.cacheMap[key] = value
            markKeyAsFirst(key)
            while state.cacheOrder.count > capacity {
                let stale = state.cacheOrder.removeFirst()
                state.cacheMap.removeValue(forKey: stale)
            }
        }
    }

    package func clear() {
        lock.withLock { _ in
            state.cacheMap.removeAll()
            state.cacheOrder.removeAll()
        }
    }
}
