import Throttling

/// The two calls measured on every throttle policy, and the policies each is measured for.
///
/// One list for the ordo-one benchmarks (`ThrottlingBenchmarks`) and the instruction counter
/// (`instruction-counts`), as `LockingMicroBenchmarks` is for the locks, so a benchmark's time and
/// its instruction count are gated under the same name: `UpdateThrottler.<path>(<policy>)`.
public enum PolicyPath: String, CaseIterable, Sendable {
    /// `commitArrived` while updates are being held back: the call every commit makes.
    case commitArrived
    /// The callback that publishes, then `updateApplied` as the host reports the update.
    case publish

    /// Every built-in policy; for `publish`, all but `immediate`, whose every commit publishes.
    public var policies: [ThrottlerVariant] {
        switch self {
        case .commitArrived: ThrottlerVariant.builtIn
        case .publish: ThrottlerVariant.builtIn.filter { $0.name != "immediate" }
        }
    }

    /// `UpdateThrottler.<path>(<policy>)`, the benchmark's name inside its target.
    public func name(_ policy: ThrottlerVariant) -> String { "UpdateThrottler.\(rawValue)(\(policy.name))" }

    /// The call to measure on `policy`'s steady state (`PolicyFixtures.make`): one indirect call.
    /// A fixture that no longer drives the path its name says is a crash here (`fatalError`), not
    /// a benchmark error: in `thresholds check` mode ordo-one reports a benchmark that errors as
    /// EQUAL (it has no results to compare), so an error would pass the gate silently.
    public func call(for policy: ThrottlerVariant) -> () -> ThrottleDecision {
        let paths = PolicyFixtures.make(policy)
        if let mismatch = paths.mismatch(policy) { fatalError(mismatch) }
        switch self {
        case .commitArrived: return paths.commit
        case .publish: return paths.publish
        }
    }
}
