/// The value live mode stores: a small object, like the records and models Signal caches
/// (`NSObject` values in `AnyLRUCache`). Values are allocated before a measurement starts, so
/// allocation counts are the cache's own. Public because a user's live cache type names it
/// (`CountBoundedCache<Int, CachedValue>`), usually by inference.
public final class CachedValue: Sendable {
    /// The key it was made for.
    public let id: Int
    /// A value for key `id` (allocated before the measurement).
    public init(id: Int) { self.id = id }
}
