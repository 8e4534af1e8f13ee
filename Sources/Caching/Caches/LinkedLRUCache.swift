/// The reference LRU: a hash map to slots of a doubly linked list, O(1) for every operation.
///
/// The list lives in parallel arrays indexed by slot (no node objects), so a hit only rewires four
/// integers and a full cache reuses the evicted slot: no allocation once warm.
package final class LinkedLRUCache<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    private var slotOf: [Key: Int] = [:]
    private var keys: [Key?] = []
    private var values: [Value?] = []
    private var prev: [Int] = []
    private var next: [Int] = []
    /// Most recently used slot, or -1.
    private var head = -1
    /// Least recently used slot, or -1.
    private var tail = -1

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        slotOf.reserveCapacity(self.capacity)
    }

    package var count: Int { slotOf.count }

    package func get(_ key: Key) -> Value? {
        guard let slot = slotOf[key] else { return nil }
        moveToFront(slot)
        return values[slot]
    }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        if let slot = slotOf[key] {
            values[slot] = value
            moveToFront(slot)
            return
        }
        let slot: Int
        if slotOf.count == capacity {
            slot = tail
            unlink(slot)
            slotOf[keys[slot]!] = nil
            keys[slot] = key
            values[slot] = value
        } else {
            slot = keys.count
            keys.append(key)
            values.append(value)
            prev.append(-1)
            next.append(-1)
        }
        slotOf[key] = slot
        pushFront(slot)
    }

    package func clear() {
        slotOf.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        prev.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        head = -1
        tail = -1
    }

    /// Keys from most to least recently used (tests).
    package var recencyOrder: [Key] {
        var out: [Key] = []
        var s = head
        while s != -1 {
            out.append(keys[s]!)
            s = next[s]
        }
        return out
    }

    private func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        pushFront(slot)
    }

    private func unlink(_ slot: Int) {
        let p = prev[slot], n = next[slot]
        if p != -1 { next[p] = n } else { head = n }
        if n != -1 { prev[n] = p } else { tail = p }
        prev[slot] = -1
        next[slot] = -1
    }

    private func pushFront(_ slot: Int) {
        prev[slot] = -1
        next[slot] = head
        if head != -1 { prev[head] = slot }
        head = slot
        if tail == -1 { tail = slot }
    }
}
