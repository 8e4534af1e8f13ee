import Foundation

/// Signal's current `LRUCache` on this platform: a thin wrapper over Foundation's real `NSCache`
/// with `countLimit = capacity`, keys boxed as `NSNumber` (Signal's `key as AnyObject`), and the
/// wrapper's `countLimit > 0` guard on `set`. Used in live mode; thread-safe because NSCache is.
package final class FoundationNSCache<Value: AnyObject>: CountBoundedCache, @unchecked Sendable {
    // @unchecked: NSCache does its own locking; `capacity` is immutable.
    package let capacity: Int
    private let cache = NSCache<NSNumber, Value>()

    package init(capacity: Int) {
        self.capacity = max(0, capacity)
        cache.countLimit = self.capacity
    }

    /// Number of the keys 0..<probe that are held (NSCache cannot enumerate its entries).
    package func heldKeys(below probe: Int) -> [Int] {
        (0..<probe).filter { cache.object(forKey: NSNumber(value: $0)) != nil }
    }

    /// -1: NSCache cannot report its count (and Signal's wrapper does not keep one).
    package var count: Int { -1 }

    package func get(_ key: Int) -> Value? { cache.object(forKey: NSNumber(value: key)) }

    package func set(_ key: Int, _ value: Value) {
        guard capacity > 0 else { return }
        cache.setObject(value, forKey: NSNumber(value: key))
    }

    package func clear() { cache.removeAllObjects() }
}
