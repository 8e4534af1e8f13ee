import BenchSuite
import Caching

/// Evicts the oldest insertion; a hit changes nothing.
public final class OldestFirst<Key: Hashable, Value>: CountBoundedCache {
    public let capacity: Int
    private var entries: [Key: Value] = [:]
    private var order: [Key] = []
    public init(capacity: Int) { self.capacity = max(0, capacity) }
    public var count: Int { entries.count }
    public func get(_ key: Key) -> Value? { entries[key] }
    public func set(_ key: Key, _ value: Value) {
        guard capacity > 0, entries.updateValue(value, forKey: key) == nil else { return }
        order.append(key)
        if order.count > capacity { entries[order.removeFirst()] = nil }
    }
    public func clear() { entries.removeAll(); order.removeAll() }
}
