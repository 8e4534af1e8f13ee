import BenchSuite
import Caching

/// CLOCK eviction (second chance): entries sit in a ring of slots with one reference bit each. A
/// hit only sets the bit; a full cache moves the hand around the ring, clearing set bits, and
/// evicts the first entry whose bit is already clear — an LRU approximation with O(1) hits and no
/// list surgery.
///
/// Single-threaded by design: bench-cache's live mode wraps it in its harness lock
/// (`LiveThreading.lockedByHarness`, the default), so it needs no lock of its own.
///
/// Registered in main.swift with:
/// ```swift
/// try suite.caches.register(
///     CacheVariant(name: "clock", origin: .user, summary: "CLOCK (second chance): a ring of reference bits",
///                  sim: { capacity, _ in ClockCache(capacity: capacity) },
///                  live: { capacity, _ in ClockCache(capacity: capacity) }))
/// ```
public final class ClockCache<Key: Hashable, Value>: CountBoundedCache {
    public let capacity: Int
    private var slotOf: [Key: Int] = [:]
    private var keys: [Key] = []
    private var values: [Value] = []
    private var referenced: [Bool] = []
    private var hand = 0

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        slotOf.reserveCapacity(self.capacity)
    }

    public var count: Int { slotOf.count }

    public func get(_ key: Key) -> Value? {
        guard let slot = slotOf[key] else { return nil }
        referenced[slot] = true
        return values[slot]
    }

    public func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        if let slot = slotOf[key] {
            values[slot] = value
            referenced[slot] = true
            return
        }
        guard keys.count == capacity else {
            slotOf[key] = keys.count
            keys.append(key)
            values.append(value)
            referenced.append(false)
            return
        }
        while referenced[hand] {
            referenced[hand] = false
            hand = (hand + 1) % capacity
        }
        slotOf[keys[hand]] = nil
        slotOf[key] = hand
        keys[hand] = key
        values[hand] = value
        hand = (hand + 1) % capacity
    }

    public func clear() {
        slotOf.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        referenced.removeAll(keepingCapacity: true)
        hand = 0
    }
}
