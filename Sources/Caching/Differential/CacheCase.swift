import Differential
import Simulation

/// bench-cache's differential case: a short sequence of reads and lifecycle clears on one cache of
/// a small capacity, stepped as the simulation steps it (read-through: a `get`, and on a miss a
/// `set` of the same key).
///
/// **Its log**: one event per operation, in order. A cache has no clock of its own, so `at_ns` is
/// the operation's position in the case (0, 1, 2, …). A read is `hit key=K` or `miss key=K`, its
/// detail ending with `count=N`, the entries held after it (an eviction shows as a count that did
/// not grow); a clear is `clear count=N`. Two caches agree when they hit and miss on the same reads
/// and hold as many entries throughout.
public struct CacheCase: DifferentialCase, Hashable {
    /// One operation: a read of `key`, or a lifecycle clear.
    public struct Operation: Codable, Hashable, Sendable {
        /// `read` or `clear`.
        public var op: String
        public var key: Int
    }

    /// The cache's capacity (entries).
    public var capacity: Int
    /// The seed the factory gets (for a design that draws random numbers).
    public var seed: UInt64
    public var operations: [Operation]

    public static let workload = "cache"

    public var size: Int { operations.count }

    /// Capacity 1–6, 1–30 operations over keys below twice the capacity, one in ten a clear.
    public static func random(_ g: inout SeededGenerator) -> CacheCase {
        let capacity = Int(g.nextInt(in: 1...6))
        let operations = (0..<Int(g.nextInt(in: 1...30))).map { _ in
            g.nextUnit() < 0.1
                ? Operation(op: "clear", key: 0) : Operation(op: "read", key: Int(g.nextInt(in: 0...Int64(2 * capacity - 1))))
        }
        return CacheCase(capacity: capacity, seed: g.next(), operations: operations)
    }

    /// Drop every read of one key and take one entry off the capacity (the same pressure with one
    /// key fewer); drop one key's reads; drop an operation; a smaller key (0, or one less); a
    /// smaller capacity.
    public var shrinkCandidates: [CacheCase] {
        var out: [CacheCase] = []
        func with(_ change: (inout CacheCase) -> Void) {
            var copy = self
            change(&copy)
            out.append(copy)
        }
        let keys = Set(operations.filter { $0.op == "read" }.map(\.key)).sorted()
        if keys.count > 1 {
            for k in keys {
                if capacity > 1 {
                    with {
                        $0.operations.removeAll { $0.op == "read" && $0.key == k }
                        $0.capacity -= 1
                    }
                }
                with { $0.operations.removeAll { $0.op == "read" && $0.key == k } }
            }
        }
        if operations.count > 1 { for i in operations.indices { with { $0.operations.remove(at: i) } } }
        for (i, o) in operations.enumerated() where o.key > 0 {
            with { $0.operations[i].key = 0 }
            if o.key > 1 { with { $0.operations[i].key -= 1 } }
        }
        if capacity > 1 { with { $0.capacity -= 1 } }
        return out
    }

    /// Steps a fresh sim instance of the variant through the operations.
    public func observe(_ variant: CacheVariant) -> [ObservedEvent] {
        observe(variant.makeSim(capacity, seed))
    }

    private func observe<C: CountBoundedCache<Int, Int>>(_ cache: C) -> [ObservedEvent] {
        var log: [ObservedEvent] = []
        log.reserveCapacity(operations.count)
        for (i, o) in operations.enumerated() {
            if o.op == "clear" {
                cache.clear()
                log.append(ObservedEvent(atNs: Int64(i), kind: "clear", detail: "count=\(cache.count)"))
            } else if cache.get(o.key) != nil {
                log.append(ObservedEvent(atNs: Int64(i), kind: "hit", detail: "key=\(o.key) count=\(cache.count)"))
            } else {
                cache.set(o.key, o.key)
                log.append(ObservedEvent(atNs: Int64(i), kind: "miss", detail: "key=\(o.key) count=\(cache.count)"))
            }
        }
        return log
    }
}
