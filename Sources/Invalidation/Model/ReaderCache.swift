/// A model read cache: key → the row version it holds, least recently used evicted at capacity.
///
/// Signal's `ModelReadCache` on an `LRUCache` (thread 32, interaction 1024, stickers 600 entries);
/// what matters for invalidation is only *which version* of a row a hit returns. Recency is an
/// integer tick (never a clock), so eviction order is the same in every run.
struct ReaderCache: Sendable {
    struct Entry: Sendable {
        var version: Int64
        var tick: UInt64
    }

    let capacity: Int
    private(set) var entries: [Int: Entry] = [:]
    private var tick: UInt64 = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { entries.count }

    /// The cached version of `key`, marking it recently used.
    mutating func lookup(_ key: Int) -> Int64? {
        guard var e = entries[key] else { return nil }
        tick &+= 1
        e.tick = tick
        entries[key] = e
        return e.version
    }

    func peek(_ key: Int) -> Int64? { entries[key]?.version }

    /// Stores `version` for `key`; returns the entry evicted to make room, if any.
    @discardableResult
    mutating func store(_ key: Int, version: Int64) -> (key: Int, version: Int64)? {
        tick &+= 1
        var victim: (key: Int, version: Int64)?
        if entries[key] == nil, entries.count >= capacity, capacity > 0 {
            // The least recently used entry: ticks are unique, so the minimum is unambiguous.
            let lru = entries.min { $0.value.tick < $1.value.tick }!
            victim = (lru.key, lru.value.version)
            entries[lru.key] = nil
        }
        guard capacity > 0 else { return nil }
        entries[key] = Entry(version: version, tick: tick)
        return victim
    }

    @discardableResult
    mutating func remove(_ key: Int) -> Int64? { entries.removeValue(forKey: key)?.version }

    /// Empties the cache; returns what it held, ordered by key.
    mutating func evacuate() -> [(key: Int, version: Int64)] {
        let all = entries.map { ($0.key, $0.value.version) }.sorted { $0.0 < $1.0 }
        entries.removeAll(keepingCapacity: true)
        return all
    }
}
