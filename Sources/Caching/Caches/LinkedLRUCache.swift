/// The reference LRU: a hash map to slots of a doubly linked list, O(1) for every operation.
///
/// The list lives in parallel arrays indexed by slot (no node objects), so a hit only rewires four
/// integers and a full cache reuses the evicted slot: no allocation once warm.
package final class LinkedLRUCache<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    /// All the mutable state in one stored property, so that a call pays one run-time exclusivity
    /// check (a class's stored properties are checked dynamically on every access) instead of one
    /// per array and index it touches: those checks were 20 % of bench-cache's default run.
    private var state: State

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        state = State(capacity: self.capacity)
    }

    package var count: Int { state.slotOf.count }

    package func get(_ key: Key) -> Value? { state.get(key) }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        state.set(key, value, capacity: capacity)
    }

    package func clear() { state.clear() }

    /// Keys from most to least recently used (tests).
    package var recencyOrder: [Key] {
        var out: [Key] = []
        var s = state.head
        while s != -1 {
            out.append(state.keys[s]!)
            s = state.next[s]
        }
        return out
    }

    private struct State {
        var slotOf: [Key: Int] = [:]
        var keys: [Key?] = []
        var values: [Value?] = []
        var prev: [Int] = []
        var next: [Int] = []
        /// Most recently used slot, or -1.
        var head = -1
        /// Least recently used slot, or -1.
        var tail = -1

        init(capacity: Int) {
            slotOf.reserveCapacity(capacity)
        }

        mutating func get(_ key: Key) -> Value? {
            guard let slot = slotOf[key] else { return nil }
            moveToFront(slot)
            return values[slot]
        }

        mutating func set(_ key: Key, _ value: Value, capacity: Int) {
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

        mutating func clear() {
            slotOf.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            prev.removeAll(keepingCapacity: true)
            next.removeAll(keepingCapacity: true)
            head = -1
            tail = -1
        }

        private mutating func moveToFront(_ slot: Int) {
            guard slot != head else { return }
            unlink(slot)
            pushFront(slot)
        }

        private mutating func unlink(_ slot: Int) {
            let p = prev[slot], n = next[slot]
            if p != -1 { next[p] = n } else { head = n }
            if n != -1 { prev[n] = p } else { tail = p }
            prev[slot] = -1
            next[slot] = -1
        }

        private mutating func pushFront(_ slot: Int) {
            prev[slot] = -1
            next[slot] = head
            if head != -1 { prev[head] = slot }
            head = slot
            if tail == -1 { tail = slot }
        }
    }
}
