/// A dictionary behind a lock with Signal's surface: subscript get and set, and `update` for a
/// read-modify-write of one entry in one critical section.
package final class AtomicDictionary<Key: Hashable, Value, Lock: LockStrategy> {
    let value: AtomicValue<[Key: Value], Lock>

    package init(_ contents: [Key: Value] = [:], lock: Lock = Lock()) {
        value = AtomicValue(contents, lock: lock)
    }

    package subscript(key: Key) -> Value? {
        get { value.withValue { $0[key] } }
        set { value.update { $0[key] = newValue } }
    }

    package var count: Int { value.withValue { $0.count } }

    /// A copy of the current contents.
    package var contents: [Key: Value] { value.get() }

    /// Mutates the entry for `key` (nil when absent; set it to nil to remove it).
    @inline(__always)
    @discardableResult
    package func update<Result>(key: Key, _ body: (inout Value?) -> Result) -> Result {
        value.update { body(&$0[key]) }
    }
}

// Sendable when keys and values are: the dictionary is only reached through an AtomicValue.
extension AtomicDictionary: @unchecked Sendable where Key: Sendable, Value: Sendable {}
