import Measurement

/// What every `CountBoundedCache` promises the harness, checked on every item, sim and live.
///
/// A cache that breaks a rule fails its item rather than being ranked: one that never evicts and
/// reports a nonsense `count` would otherwise top the hit-ratio table. The exception in
/// `keepsWhatWasSet` is measured, not chosen: swift-corelibs-foundation's `NSCache`, once full,
/// evicts the entry just inserted (`CorelibsNSCacheModel` says how), and a platform's cache is
/// measured as it is.
public enum CacheContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "cache"

    /// `count` stays within the capacity; -1 ("cannot tell") is accepted live only, for a cache
    /// that cannot count (Foundation's `NSCache`), and never in virtual time, where the
    /// capacity is checked through it.
    public static let countWithinCapacity = ContractRule(
        role: role,
        statement: "0 ≤ count ≤ capacity after every operation (live also accepts -1: cannot tell)"
    )

    /// What was just stored can be read back.
    public static let keepsWhatWasSet = ContractRule(
        role: role,
        statement:
            "a get right after a set of the same key, with no clear in between, returns it (capacity > 0; a cache full before the set may refuse the newcomer)"
    )

    /// Every rule, in the order of the docs' table.
    public static let rules = [countWithinCapacity, keepsWhatWasSet]
}
