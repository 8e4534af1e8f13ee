import Records

/// A cache whose entries are valid until `insert reading + TTL`, checked lazily on every lookup
/// (`if Date() >= entry.expires { evict }`), as most app caches do.
public struct TTLCacheClient<Clock: ClockSource>: TimingClient {
    public enum Event: Sendable {
        case insert(Int)
        case lookup(Int)
    }
    public static var kind: ClientKind { .ttlCache }

    let clock: Clock
    let ttl: Int64
    var expires: [Int: Int64] = [:]
    var insertedTrue: [Int: Int64] = [:]
    var early: Set<Int> = []
    var late: Set<Int> = []
    var wrongLookups = 0, lookups = 0
    /// (true time, entry, expired too early) per wrong lookup, when recording a trace.
    var wrong: [(time: Int64, entry: Int, early: Bool)]?
    let tolerance: Int64

    public init(clock: Clock, parameters: ClientParameters) {
        self.clock = clock
        self.ttl = nanoseconds(parameters.ttlSeconds)
        self.tolerance = nanoseconds(parameters.toleranceSeconds)
    }

    /// One insert every `ttlInsertEvery` s in each window; each entry looked up every
    /// `ttlLookupEvery` s (a quarter period off the insert grid) until it is 2 × TTL old, except
    /// while the machine sleeps.
    public static func workload(_ plan: WorkloadPlan) -> [Timed<Event>] {
        let p = plan.parameters
        let every = nanoseconds(p.ttlInsertEvery), lookupEvery = nanoseconds(p.ttlLookupEvery)
        let ttl = nanoseconds(p.ttlSeconds)
        var events: [Timed<Event>] = []
        var id = 0
        for w in plan.windows {
            var t = w.lowerBound
            while t < w.upperBound {
                events.append(Timed(t, .insert(id)))
                var l = t + lookupEvery / 4
                while l <= t + 2 * ttl {
                    if !plan.isSuspended(l) { events.append(Timed(l, .lookup(id))) }
                    l += lookupEvery
                }
                id += 1
                t += every
            }
        }
        return sortedWorkload(events)
    }

    public mutating func handle(_ event: Event, trueTime: Int64) {
        switch event {
        case .insert(let i):
            expires[i] = clock.now() &+ ttl
            insertedTrue[i] = trueTime
        case .lookup(let i):
            guard let e = expires[i], let inserted = insertedTrue[i] else { return }
            lookups += 1
            let expired = clock.now() >= e
            let age = trueTime - inserted
            if expired, age < ttl - tolerance {
                early.insert(i)
                wrongLookups += 1
                wrong?.append((trueTime, i, true))
            } else if !expired, age > ttl + tolerance {
                late.insert(i)
                wrongLookups += 1
                wrong?.append((trueTime, i, false))
            }
        }
    }

    public var wakeDeadline: Int64? { nil }
    public mutating func wake(trueTime: Int64) {}

    public func observations(_ context: ScoringContext) -> [Observation] {
        [
            Observation("ttl_entries", Double(insertedTrue.count), "count"),
            Observation("ttl_expired_early", Double(early.count), "count"),
            Observation("ttl_expired_late", Double(late.count), "count"),
            Observation("ttl_wrong_lookups_pct", lookups == 0 ? 0 : Double(wrongLookups) / Double(lookups) * 100, "%"),
        ]
    }
}
