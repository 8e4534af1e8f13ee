/// What swift-corelibs-foundation's `NSCache` does with a `countLimit` and cost-0 entries, as a
/// deterministic model for the simulation (the real class is measured in live mode and checked
/// against this model access by access in CachingTests).
///
/// Measured on this machine (Swift 6.3.1, Linux): once `countLimit` entries are held, inserting a
/// new key evicts the entry just inserted — corelibs keeps entries in a cost-sorted list and
/// evicts from its head, where a cost-0 newcomer lands — so the cache freezes on its first N keys
/// until a `removeObject`/`removeAllObjects`. Replacing the value of a held key keeps it. Darwin's
/// NSCache evicts differently (undocumented): this is why the model must not use Linux's NSCache
/// as a stand-in for the iOS app's cache.
///
/// Signal's current wrapper guards `set` with `countLimit > 0` (NSCache treats 0 as unlimited), so
/// a disabled cache (the NSE's default) stores nothing; the model does the same.
package final class CorelibsNSCacheModel<Key: Hashable, Value>: CountBoundedCache {
    package let capacity: Int
    private var entries: [Key: Value] = [:]

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    package var count: Int { entries.count }

    package func get(_ key: Key) -> Value? { entries[key] }

    package func set(_ key: Key, _ value: Value) {
        guard capacity > 0 else { return }
        if entries[key] != nil || entries.count < capacity { entries[key] = value }
        // else: inserted, then evicted at once as the newest cost-0 entry.
    }

    package func clear() { entries.removeAll() }
}
