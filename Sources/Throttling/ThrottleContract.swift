import Measurement

/// What every `UpdateThrottler` promises the harness, checked on every item, in virtual time and
/// live (both drive the same `MainThreadMachine`, which checks each decision as it carries it out).
///
/// Without these, a policy that keeps its last rows forever would be ranked on the latency of the
/// rows it did publish, and nonsense decisions (a partial publish of -5 rows, a timer set 1,000 s
/// in the past) would be carried out without a word.
public enum ThrottleContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "throttler"

    /// Nothing is lost: by the end of the run (after the trace, within the drain limit) the policy
    /// has published every committed row.
    public static let publishesEveryRow = ContractRule(
        role: role,
        statement: "every committed row is published by the end of the run (none lost)"
    )

    /// A partial publish asks for at least one row (`.upTo(rows: Int.max)` is allowed: it is `.all`).
    public static let asksForRows = ContractRule(role: role, statement: "a partial publish asks for rows > 0 (.upTo(rows:))")

    /// A timer is armed at or after the callback's `context.now`.
    public static let timerNotInThePast = ContractRule(role: role, statement: "a timer is not set in the past (.fire(at:) ≥ context.now)")

    /// Every rule, in the order of the docs' table.
    public static let rules = [publishesEveryRow, asksForRows, timerNotInThePast]
}
