import Synchronization

/// Makes a single-threaded cache shareable between threads with one lock around every call: how
/// live mode runs `lru`, `fifo`, `random` and `s3-fifo` contended (Signal's 2021 cache has its own
/// lock; NSCache locks internally; the 2018 cache had none and is only measured single-threaded).
package final class LockedCache<Base: CountBoundedCache>: CountBoundedCache, @unchecked Sendable {
    // @unchecked: `base` is only touched inside `lock.withLock`.
    private let lock = Mutex(())
    private let base: Base

    package init(_ base: Base) {
        self.base = base
    }

    package var capacity: Int { base.capacity }
    package var count: Int { lock.withLock { _ in base.count } }
    package func get(_ key: Base.Key) -> Base.Value? { lock.withLock { _ in Handoff(value: base.get(key)) }.value }
    package func set(_ key: Base.Key, _ value: Base.Value) { lock.withLock { _ in base.set(key, value) } }
    package func clear() { lock.withLock { _ in base.clear() } }
}

/// Carries a value out of `Mutex.withLock`, which demands a `sending` result: the values live
/// mode stores are immutable `Sendable` objects, but the generic `Value` cannot say so.
private struct Handoff<T>: @unchecked Sendable {
    var value: T
}
