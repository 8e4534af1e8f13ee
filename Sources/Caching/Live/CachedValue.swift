/// The value live mode stores: a small object, like the records and models Signal caches
/// (`NSObject` values in `AnyLRUCache`). Values are allocated before a measurement starts, so
/// allocation counts are the cache's own.
package final class CachedValue: Sendable {
    package let id: Int
    package init(id: Int) { self.id = id }
}
