import DequeModule

/// First in, first out: a hit changes nothing; a full cache evicts the oldest insertion. One of
/// the two stand-ins for Darwin's NSCache, whose eviction order Apple does not document.
package final class FIFOCache<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    /// All the mutable state in one stored property: one run-time exclusivity check per call (see
    /// `LinkedLRUCache`).
    private var state = State()

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    package var count: Int { state.entries.count }

    package func get(_ key: Key) -> Value? { state.entries[key] }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        state.set(key, value, capacity: capacity)
    }

    package func clear() { state.clear() }

    private struct State {
        var entries: [Key: Value] = [:]
        var queue = Deque<Key>()

        mutating func set(_ key: Key, _ value: Value, capacity: Int) {
            if entries.updateValue(value, forKey: key) != nil { return }
            queue.append(key)
            if queue.count > capacity {
                entries[queue.removeFirst()] = nil
            }
        }

        mutating func clear() {
            entries.removeAll(keepingCapacity: true)
            queue.removeAll(keepingCapacity: true)
        }
    }
}
