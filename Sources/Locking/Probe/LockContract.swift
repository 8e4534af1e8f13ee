import Measurement

/// What every lock and whole atomic wrapper of bench-atomics promises the harness, checked on
/// every item (bench-atomics is live only).
///
/// The lost-update count catches a lock without mutual exclusion only when two workers collide
/// inside the timed window, which at `--threads 1` never happens and at 2 threads on a loaded
/// 2-core machine may not; `ExclusionProbe` makes the collision near certain and runs before the
/// timed window, so the numbers do not move. The declared unsynchronized control is exempt: it is
/// there to lose updates.
public enum LockContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "lock"

    /// Two bodies of one lock (two `update`s of one wrapper) never run at the same time.
    public static let mutualExclusion = ContractRule(
        role: role,
        statement:
            "no two bodies of one lock (updates of one wrapper) run at once, so no update is lost (except the declared unsynchronized control)"
    )

    /// Every rule, in the order of the docs' table.
    public static let rules = [mutualExclusion]
}
