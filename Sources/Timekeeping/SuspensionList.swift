/// Lookups in a sorted list of non-overlapping suspended stretches, by bisection: a skew file may
/// hold 100 000 suspends, and every event of a run asks whether it falls inside one.
extension Array where Element == Range<Int64> {
    /// The index of the first stretch that ends after `t` (`count` when none does).
    package func firstIndex(endingAfter t: Int64) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid].upperBound <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The stretch that contains `t`, if any.
    package func suspension(containing t: Int64) -> Range<Int64>? {
        let i = firstIndex(endingAfter: t)
        return i < count && self[i].contains(t) ? self[i] : nil
    }
}
