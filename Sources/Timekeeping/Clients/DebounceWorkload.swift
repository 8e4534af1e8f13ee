/// The request stream both debounce clients get: bursts of 2…10 requests close together,
/// separated by quiet gaps far longer than the interval, so a step often lands while a fire is
/// pending.
///
/// Both clients draw it from the same seed stream, so their numbers compare Signal's lastOnly and
/// the article's re-arming debounce on the very same requests.
enum DebounceWorkload {
    /// Seeds the workload of both debounce clients (the stream the single `debounce` client had).
    static let stream: UInt64 = 103

    /// Requests as (true time, burst index), in time order.
    static func requests(_ plan: WorkloadPlan) -> [(time: Int64, burst: Int)] {
        var rng = plan.generator(stream: stream)
        let p = plan.parameters
        var out: [(time: Int64, burst: Int)] = []
        var burst = 0
        for w in plan.windows {
            var t = w.lowerBound + nanoseconds(p.burstGapMin * rng.nextUnit())
            while true {
                let count = Int(rng.nextInt(in: 2...10))
                var signals: [Int64] = []
                for _ in 0..<count {
                    signals.append(t)
                    t += nanoseconds(p.burstSpacingMin + (p.burstSpacingMax - p.burstSpacingMin) * rng.nextUnit())
                }
                guard signals.last! + nanoseconds(p.debounceSeconds) < w.upperBound else { break }
                out += signals.map { ($0, burst) }
                burst += 1
                t = signals.last! + nanoseconds(p.debounceSeconds + p.burstGapMin + (p.burstGapMax - p.burstGapMin) * rng.nextUnit())
            }
        }
        return out
    }

    /// For each request (true times, sorted), how long it waited for the first fire at or after
    /// it (true times, sorted); `horizon − request` when no fire came. The longest wait is what a
    /// user sees as a frozen screen.
    static func maxWait(requests: [Int64], fires: [Int64], horizon: Int64) -> Int64 {
        var longest: Int64 = 0
        var f = 0
        for r in requests {
            while f < fires.count, fires[f] < r { f += 1 }
            longest = max(longest, (f < fires.count ? fires[f] : horizon) - r)
        }
        return longest
    }
}
