import BenchSuite
import FanOut

/// A fan-out strategy a team might choose: `DispatchGroup` with `notify`, every call still running
/// at its service's p95 sent a second time, the first answer taken, nothing cancelled.
///
/// bench-group's role is a shape, not code: four choices the harness runs in virtual time and, live,
/// on the primitive they imply (`.callback` with `.concurrent` calls: `DispatchGroup.notify`). Before
/// registering a shape, `my-bench group --list --verbose` shows every built-in's four choices; one
/// that equals a built-in is listed as "(same parameters as '…')" — this one is the suite's
/// `group-notify` plus hedging, which the suite does not have (its `hedged` is a task group that
/// cancels on the first failure).
let hedgedNotify = FanOutVariant(
    name: "hedged-notify",
    origin: .user,
    summary: "DispatchGroup notify, calls hedged at their p95",
    shape: FanOutShape(issue: .concurrent, join: .callback, onFailure: .runToCompletion, hedged: true)
)
