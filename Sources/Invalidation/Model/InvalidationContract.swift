import Measurement
import Simulation

/// What every invalidation design promises the harness, checked on every item: the simulation's
/// main-app cache at every read, and each run's tally (sim and live) when it ends.
///
/// `InvalidationVariant` says every design keeps the same caches and the same UI-refresh path, so
/// that the metrics differ by the invalidation mechanism alone. A design that also emptied the
/// cache without saying so would serve fewer stale reads and count none of the store reads it
/// caused as extra: ranked first on a claim no metric shows. And a tally whose counts contradict
/// each other (more stale reads than hits, more missed invalidations than foreign commits) is a
/// broken run, not a finding. The designs are the suite's own (the role is not open), so an item
/// that breaks a rule is a bug of the suite.
public enum InvalidationContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "invalidation"

    /// The main app's cache loses a row only for the reasons the design declares.
    public static let keepsItsCache = ContractRule(
        role: role,
        statement:
            "the main app's cache drops a row only at capacity (least recently used), on a delivery that evacuates it, or for a change-log entry of that row: a read hits exactly the rows it kept"
    )

    /// The tally's counts agree with each other.
    public static let accountsForEveryRead = ContractRule(
        role: role,
        statement: "stale reads ≤ hits ≤ reads, and missed invalidations ≤ foreign commits (each is invalidated or counted missed)"
    )

    /// Every rule, in the order of the docs' table.
    public static let rules = [keepsItsCache, accountsForEveryRead]
}

extension InvalidationTally {
    /// The first broken rule of `InvalidationContract.accountsForEveryRead` in this tally
    /// (`mode`: `sim` or `live`, for the failure line).
    package func contractViolation(mode: String) -> ContractViolation? {
        var check = ContractCheck()
        if let mainCacheViolation { check.record(mainCacheViolation) }
        let rule = InvalidationContract.accountsForEveryRead
        check.require(staleReads <= hits, rule, at: "the end of the \(mode) run: \(staleReads) stale reads > \(hits) hits")
        check.require(hits <= reads, rule, at: "the end of the \(mode) run: \(hits) hits > \(reads) reads")
        check.require(
            shareStaleReads <= shareReads,
            rule,
            at: "the end of the \(mode) run: \(shareStaleReads) share stale reads > \(shareReads) share reads"
        )
        check.require(
            (0...foreignCommits).contains(missedInvalidations),
            rule,
            at: "the end of the \(mode) run: \(missedInvalidations) missed invalidations of \(foreignCommits) foreign commits"
        )
        return check.first
    }
}

/// The rows the main app's cache should hold, kept beside it by the harness from what it asked of
/// the cache (stores and their victims, evacuations, change-log evictions): a read whose hit or
/// miss disagrees, or a cache past its capacity, breaks `InvalidationContract.keepsItsCache`.
/// One set operation per cache call, never inside a timed read.
struct MainCacheLedger {
    let capacity: Int
    private var kept = Set<Int>()
    private(set) var check = ContractCheck()

    init(capacity: Int) { self.capacity = capacity }

    mutating func stored(_ key: Int, victim: Int?) {
        if let victim { kept.remove(victim) }
        if capacity > 0 { kept.insert(key) }
    }

    mutating func removed(_ key: Int) { kept.remove(key) }
    mutating func evacuated() { kept.removeAll(keepingCapacity: true) }

    /// A main-app read of `key` at `time` that hit or missed, with the cache's count after it.
    mutating func read(_ key: Int, hit: Bool, count: Int, at time: SimInstant) {
        check.require(
            hit == kept.contains(key) && count <= capacity,
            InvalidationContract.keepsItsCache,
            at:
                "read of row \(key) at \(time): \(hit ? "hit" : "missed") a row the cache \(kept.contains(key) ? "kept" : "had dropped"), \(count) rows held of \(capacity)"
        )
    }
}
