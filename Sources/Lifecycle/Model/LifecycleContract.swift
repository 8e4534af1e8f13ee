import Measurement

/// What every lifecycle strategy's declaration promises the harness, checked on every item, sim
/// and live (a live item simulates its strategy first, for its kill points).
///
/// A share outside [0, 1] or a negative retry count has no meaning in the model; clamping it in
/// silence ranked a strategy that did not say what it meant. The item fails instead, at the first
/// event that reads the value, with its virtual time.
public enum LifecycleContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "lifecycle"

    /// `cachePurgedInBackground` is a share.
    public static let sharesInRange = ContractRule(role: role, statement: "every share (cachePurgedInBackground) is finite and in [0, 1]")

    /// `refresh.retries` counts attempts.
    public static let retriesNotNegative = ContractRule(role: role, statement: "refresh.retries ≥ 0")

    /// `refresh.ownTimeoutSeconds` is a duration the sync stops itself after. A NaN or an
    /// infinite one trapped the model when it turned it into nanoseconds, ending the whole run
    /// (lifecycle strategies run in-process); zero or less stops every sync before it starts.
    public static let ownTimeoutPositive = ContractRule(
        role: role,
        statement: "refresh.ownTimeoutSeconds, when set, is finite and > 0"
    )

    /// `crashLoopThreshold` counts consecutive unfinished launches. At zero or less every launch,
    /// the first on a new device included, would show the launch-failure screen: not a threshold.
    public static let crashLoopThresholdPositive = ContractRule(
        role: role,
        statement: "crashLoopThreshold, when set, is ≥ 1"
    )

    /// Every rule, in the order of the docs' table.
    public static let rules = [sharesInRange, retriesNotNegative, ownTimeoutPositive, crashLoopThresholdPositive]

    /// The time of an event, as the failure line gives it.
    static func at(_ t: Int64) -> String { "\(Double(t) / 1e6) ms" }
}
