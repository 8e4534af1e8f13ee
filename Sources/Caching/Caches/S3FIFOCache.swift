import DequeModule

/// S3-FIFO (Yang, Zhang, Qiu, Yue, Rashmi: "FIFO queues are all you need for cache eviction",
/// SOSP 2023): three FIFO queues instead of a recency list.
///
/// - A small queue S (10 % of the capacity) admits new keys; most one-hit wonders leave from
///   there without ever disturbing the main queue — which is what makes it resist scans.
/// - A main queue M (the rest) holds keys that were hit while in S (or that return from G).
/// - A ghost queue G remembers the keys (no values) recently evicted from S, as many as M holds;
///   a key that comes back while still a ghost goes straight to M.
/// Each entry has a 2-bit frequency (0…3) raised on a hit; eviction from M gives a second chance
/// to an entry with frequency > 0 (decrementing it), like CLOCK. A hit therefore only bumps a
/// counter — no list surgery — and every operation is amortised O(1).
package final class S3FIFOCache<Key: Hashable, Value>: CountBoundedCache {
    private enum Queue { case small, main }
    private struct Entry {
        var value: Value
        var frequency: UInt8
        var queue: Queue
    }

    package let capacity: Int
    /// Target size of S.
    let smallCapacity: Int
    /// All the mutable state in one stored property: one run-time exclusivity check per call (see
    /// `LinkedLRUCache`).
    private var state: State

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        smallCapacity = max(1, self.capacity / 10)
        state = State(capacity: self.capacity, smallCapacity: smallCapacity)
    }

    package var count: Int { state.entries.count }

    package func get(_ key: Key) -> Value? { state.get(key) }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        state.set(key, value)
    }

    package func clear() { state.clear() }

    private struct State {
        let capacity: Int
        let smallCapacity: Int
        var entries: [Key: Entry] = [:]
        var small = Deque<Key>()
        var main = Deque<Key>()
        /// Ghost keys in eviction order with the stamp they were remembered under; a key that
        /// leaves G early (it came back) is only dropped from `ghostStamp`, and its stale queue
        /// entry skipped later, so that a ghost hit costs O(1), not a search of the queue.
        var ghost = Deque<(key: Key, stamp: UInt64)>()
        var ghostStamp: [Key: UInt64] = [:]
        var nextStamp: UInt64 = 0

        init(capacity: Int, smallCapacity: Int) {
            self.capacity = capacity
            self.smallCapacity = smallCapacity
        }

        /// One hash look-up: the frequency is raised in place.
        mutating func get(_ key: Key) -> Value? {
            guard let i = entries.index(forKey: key) else { return nil }
            if entries.values[i].frequency < 3 { entries.values[i].frequency += 1 }
            return entries.values[i].value
        }

        mutating func set(_ key: Key, _ value: Value) {
            if var e = entries[key] {
                e.value = value
                entries[key] = e
                return
            }
            while entries.count >= capacity { evict() }
            if ghostStamp.removeValue(forKey: key) != nil {
                // Still remembered: it was evicted from S too early; admit it to M.
                entries[key] = Entry(value: value, frequency: 0, queue: .main)
                main.append(key)
            } else {
                entries[key] = Entry(value: value, frequency: 0, queue: .small)
                small.append(key)
            }
        }

        mutating func clear() {
            entries.removeAll(keepingCapacity: true)
            small.removeAll(keepingCapacity: true)
            main.removeAll(keepingCapacity: true)
            ghost.removeAll(keepingCapacity: true)
            ghostStamp.removeAll(keepingCapacity: true)
        }

        /// Frees one slot: from S while S holds its share (or M is empty), else from M.
        private mutating func evict() {
            if small.count >= smallCapacity || main.isEmpty {
                evictSmall()
            } else {
                evictMain()
            }
        }

        private mutating func evictSmall() {
            while let key = small.popFirst() {
                guard var e = entries[key] else { continue }
                if e.frequency > 1 {
                    // Hit at least twice while in S: promote to M (which may have to make room).
                    e.frequency = 0
                    e.queue = .main
                    entries[key] = e
                    main.append(key)
                    if main.count > capacity - smallCapacity { evictMain() }
                    if entries.count < capacity { return }
                } else {
                    entries[key] = nil
                    remember(key)
                    return
                }
            }
            evictMain()
        }

        private mutating func evictMain() {
            while let key = main.popFirst() {
                guard var e = entries[key] else { continue }
                if e.frequency > 0 {
                    e.frequency -= 1
                    entries[key] = e
                    main.append(key)
                } else {
                    entries[key] = nil
                    return
                }
            }
        }

        private mutating func remember(_ key: Key) {
            nextStamp &+= 1
            ghost.append((key, nextStamp))
            ghostStamp[key] = nextStamp
            let limit = max(1, capacity - smallCapacity)
            while ghostStamp.count > limit || ghost.count > 2 * limit, let old = ghost.popFirst() {
                if ghostStamp[old.key] == old.stamp { ghostStamp[old.key] = nil }
            }
        }
    }
}
