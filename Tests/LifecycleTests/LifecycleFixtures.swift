import Measurement
import Simulation

@testable import Lifecycle

/// Runs `policy` over the sessions of a trace written inline (`<time_ms> <transition>` lines).
func runTrace(
    _ text: String,
    _ policy: LifecyclePolicy,
    rules: OSRules = OSRules(),
    profile: AppProfile = AppProfile(),
    record: Bool = false
) throws -> LifecycleSimulation.Outcome {
    let sessions = try TransitionTrace.parse(text, name: "inline", profile: profile, seed: 1)
    return LifecycleSimulation(policy: policy, rules: rules, profile: profile, record: record).run(sessions)
}

/// The suite's own strategies by name.
func builtIn(_ name: String) -> LifecyclePolicy {
    LifecycleVariant.builtIn.first { $0.name == name }!.policy
}

/// A session that launches at 0, is active at 0.5 s, then has `events` ("ms event", one each).
func launchedThen(_ events: String...) -> String {
    (["0 launch", "500 active"] + events).joined(separator: "\n")
}

/// A session: launch, five edits, background at 60 s, `then` after it.
func editsThenBackground(then tail: String) -> String {
    """
    0 launch
    500 active
    10000 edit
    11000 edit
    12000 edit
    13000 edit
    14000 edit
    60000 inactive
    60200 background
    \(tail)
    """
}
