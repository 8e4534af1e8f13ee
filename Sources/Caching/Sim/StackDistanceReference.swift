/// An LRU hit count computed without an LRU: Mattson's stack-distance rule (Mattson et al., 1970).
///
/// A read hits an LRU cache of capacity C (filled on every miss) exactly when fewer than C
/// distinct keys were read since the previous read of the same key (and after the last clear).
/// Distinct keys in between are counted with a Fenwick tree holding a 1 at each key's latest
/// position, O(log n) per read. It shares no code or data structure with `LinkedLRUCache`, so
/// the equality of the two (a threshold in results/thresholds.json) checks the reference.
public enum StackDistanceReference {
    /// Hits of an LRU of `capacity` on `keys`, with the cache emptied before each read in `clears`.
    public static func hits(keys: [Int], capacity: Int, clears: Set<Int> = []) -> Int {
        guard capacity > 0 else { return 0 }
        let n = keys.count
        var tree = [Int](repeating: 0, count: n + 1)
        func add(_ i: Int, _ delta: Int) {
            var i = i + 1
            while i <= n {
                tree[i] += delta
                i += i & -i
            }
        }
        func prefix(_ i: Int) -> Int {  // sum of positions 0..<i
            var s = 0, i = i
            while i > 0 {
                s += tree[i]
                i -= i & -i
            }
            return s
        }
        var last: [Int: Int] = [:]
        // The clears in order, walked beside the reads (no set look-up per read).
        let clearOrder = clears.sorted()
        var nextClear = 0
        var lastClear = -1
        var hits = 0
        for (i, key) in keys.enumerated() {
            while nextClear < clearOrder.count, clearOrder[nextClear] <= i {
                if clearOrder[nextClear] == i { lastClear = i }
                nextClear += 1
            }
            // One hash look-up: the key's previous position comes back as it is replaced.
            if let p = last.updateValue(i, forKey: key) {
                if p >= lastClear {
                    let distinct = prefix(i) - prefix(p + 1)
                    if distinct < capacity { hits += 1 }
                }
                add(p, -1)
            }
            add(i, 1)
        }
        return hits
    }
}
