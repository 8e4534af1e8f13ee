import Caching

/// Which rule of `CacheContract` a `ContractCache` breaks, if any.
public enum CacheFault: Sendable {
    case none
    /// Never evicts, and reports a count of `Int.min`.
    case miscounts
    /// Never evicts, and counts honestly.
    case growsPastCapacity
    /// Stores nothing.
    case forgetsEverySet
}

/// A cache that evicts the oldest insertion; `fault` breaks one rule of `CacheContract`. Without a
/// fault it is the control: the same code, keeping the contract.
public final class ContractCache<Key: Hashable, Value>: CountBoundedCache {
    public let capacity: Int
    public let fault: CacheFault
    private var values: [Key: Value] = [:]
    private var order: [Key] = []
    public init(capacity: Int, fault: CacheFault) {
        self.capacity = max(0, capacity)
        self.fault = fault
    }
    public var count: Int { fault == .miscounts ? Int.min : values.count }
    public func get(_ key: Key) -> Value? { values[key] }
    public func set(_ key: Key, _ value: Value) {
        guard capacity > 0, fault != .forgetsEverySet, values.updateValue(value, forKey: key) == nil else { return }
        order.append(key)
        if order.count > capacity, fault == .none { values[order.removeFirst()] = nil }
    }
    public func clear() {
        values = [:]
        order = []
    }
}
