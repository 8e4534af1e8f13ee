/// A cache bounded by its number of entries, the role every variant plays (Signal's `LRUCache`
/// API: `get`, `set`, `clear`, bounded by `maxSize`).
///
/// The same classes run in both drivers: the simulation steps them one access at a time in virtual
/// time, live mode calls them from real threads. Only `LockedCache`, `Signal2021Cache` and
/// `FoundationNSCache` may be shared between threads; the others are single-threaded by design.
package protocol CountBoundedCache<Key, Value>: AnyObject {
    associatedtype Key: Hashable
    associatedtype Value
    /// The most entries the cache holds (0: disabled, every read misses).
    var capacity: Int { get }
    var count: Int { get }
    func get(_ key: Key) -> Value?
    func set(_ key: Key, _ value: Value)
    func clear()
}
