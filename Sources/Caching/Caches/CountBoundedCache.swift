/// A cache bounded by its number of entries: the role every bench-cache variant plays, the suite's
/// own and a user's (Signal's `LRUCache` API: `get`, `set`, `clear`, bounded by `maxSize`).
///
/// The same type runs in both modes:
/// - **sim** creates one instance per item with `Key == Int, Value == Int` and steps it one read
///   at a time in virtual time, on one thread (whichever `--jobs` worker runs the item): each read
///   is a `get`; a miss is followed by `set(key, value)` (read-through, as Signal's callers do);
///   a lifecycle event the variant listens to calls `clear()`. The result must depend only on the
///   calls made and on the `seed` the factory was given — never on a clock, a global random
///   source or the address of an object — so a sim run is bit-identical for a seed and any `--jobs`.
/// - **live** creates it with `Key == Int, Value == CachedValue` (a preallocated object) and calls
///   it from 1–16 real threads at once for `get`/`set`, one thread for `clear` and the fill. How
///   it is shared between threads is the variant's `LiveThreading`: by default the harness wraps
///   the cache in one lock (so a single-threaded design needs no lock of its own), a
///   `.threadSafe` type is shared bare, a `.singleThreaded` one is only measured with one thread.
///
/// What it must not do: block or sleep, call back into the harness, or grow past `capacity`
/// entries. `capacity` 0 means disabled: `set` stores nothing and every `get` misses (the NSE's
/// default size in Signal). An allocation per call is allowed but shows up in live's
/// `allocs_per_op`.
///
/// **Contract** (`CacheContract`, checked on every item, sim and live; a cache that breaks it fails
/// the item instead of being ranked): `0 ≤ count ≤ capacity` after every operation (live also
/// accepts -1, "cannot tell"), and a `get` right after a `set` of the same key, with no `clear` in
/// between, returns it (unless the cache was full before the set and refused the newcomer).
public protocol CountBoundedCache<Key, Value>: AnyObject, SendableMetatype {
    /// The key type (`Int` in both modes).
    associatedtype Key: Hashable
    /// The value type (`Int` in sim, `CachedValue` live).
    associatedtype Value
    /// The most entries the cache holds (0: disabled, every read misses).
    var capacity: Int { get }
    /// Entries held now, or -1 when the cache cannot tell (NSCache). The simulation reads it before
    /// every call to charge the O(n) generations their per-entry cost; others only for tests.
    var count: Int { get }
    /// The value held for `key`, or nil; a hit may update the design's recency or frequency.
    func get(_ key: Key) -> Value?
    /// Stores `value` for `key`, evicting what the design evicts when full.
    func set(_ key: Key, _ value: Value)
    /// Drops every entry (a lifecycle clear).
    func clear()
}
