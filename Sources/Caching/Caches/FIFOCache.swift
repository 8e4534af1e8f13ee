import DequeModule

/// First in, first out: a hit changes nothing; a full cache evicts the oldest insertion. One of
/// the two stand-ins for Darwin's NSCache, whose eviction order Apple does not document.
package final class FIFOCache<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    private var entries: [Key: Value] = [:]
    private var queue = Deque<Key>()

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    package var count: Int { entries.count }

    package func get(_ key: Key) -> Value? { entries[key] }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        if entries.updateValue(value, forKey: key) != nil { return }
        queue.append(key)
        if queue.count > capacity {
            entries[queue.removeFirst()] = nil
        }
    }

    package func clear() {
        entries.removeAll(keepingCapacity: true)
        queue.removeAll(keepingCapacity: true)
    }
}
