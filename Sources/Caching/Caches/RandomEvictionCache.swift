import Simulation

/// Evicts a uniformly random entry when full: the other stand-in for Darwin's undocumented NSCache
/// eviction. Keys sit in an array with a map to their index, so eviction is a swap-remove, O(1).
/// The choice comes from a `SeededGenerator`, so a simulation is reproducible per seed.
package final class RandomEvictionCache<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    /// All the mutable state in one stored property: one run-time exclusivity check per call (see
    /// `LinkedLRUCache`).
    private var state: State

    package init(capacity: Int, seed: UInt64) {
        self.capacity = max(0, capacity)
        state = State(generator: SeededGenerator(seed: seed))
    }

    package var count: Int { state.keys.count }

    package func get(_ key: Key) -> Value? { state.get(key) }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        state.set(key, value, capacity: capacity)
    }

    package func clear() { state.clear() }

    private struct State {
        var indexOf: [Key: Int] = [:]
        var keys: [Key] = []
        var values: [Value] = []
        var generator: SeededGenerator

        func get(_ key: Key) -> Value? {
            guard let i = indexOf[key] else { return nil }
            return values[i]
        }

        mutating func set(_ key: Key, _ value: Value, capacity: Int) {
            if let i = indexOf[key] {
                values[i] = value
                return
            }
            if keys.count == capacity {
                let victim = Int(generator.nextInt(in: 0...Int64(capacity - 1)))
                indexOf[keys[victim]] = nil
                keys[victim] = key
                values[victim] = value
                indexOf[key] = victim
            } else {
                indexOf[key] = keys.count
                keys.append(key)
                values.append(value)
            }
        }

        mutating func clear() {
            indexOf.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }
}
