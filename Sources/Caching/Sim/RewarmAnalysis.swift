/// How long a cache takes to return to steady state after a clear, from the per-read hit record.
///
/// Steady state is the hit ratio of the `window` reads before the clear. The cache has recovered at
/// the first read r (at or after the clear) such that the `window` reads starting at r hit at least
/// 90 % as often as before the clear. `missStormReads` counts the store reads from the clear to r;
/// `rewarm` is the virtual time from the clear to r. A cache that never recovers before the trace
/// ends recovers "at the end" and is flagged.
struct RewarmAnalysis {
    static let window = 500
    static let recoveredFraction = 0.9

    var missStormReads = 0
    var rewarmReads = 0
    var unrecovered = 0

    init(hits: [Bool], clears: [Int]) {
        let n = hits.count
        var prefix = [Int](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + (hits[i] ? 1 : 0) }
        for c in clears where c < n {
            let w = Self.window
            let before = max(0, c - w)
            let steady = c > before ? Double(prefix[c] - prefix[before]) / Double(c - before) : 0
            var r = c
            while r + w <= n, Double(prefix[r + w] - prefix[r]) < Self.recoveredFraction * steady * Double(w) { r += 1 }
            if r + w > n {
                r = n
                unrecovered += 1
            }
            missStormReads += (r - c) - (prefix[r] - prefix[c])
            rewarmReads += r - c
        }
    }
}
