import Measurement
import Simulation

/// What every fan-out strategy promises, checked on every item in virtual time and live.
///
/// A strategy is a shape the harness interprets, so in virtual time the check guards the
/// interpretation (a call the model drops or answers twice would make a shape look cheaper than it
/// is); live, it guards the real primitive: a `DispatchGroup` left, a handler called twice, an
/// operation that never finishes.
public enum FanOutContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "fan-out"

    /// A call sent is answered, fails, times out, is cancelled or loses its hedge: once.
    public static let completesEveryCallOnce = ContractRule(
        role: role,
        statement: "every call sent completes exactly once (answered, failed, timed out, cancelled or a lost hedge)"
    )

    /// The flow's result reaches main once: no flow is dropped or finished twice.
    public static let finishesEveryFlowOnce = ContractRule(role: role, statement: "every flow finishes exactly once")

    /// Every rule, in the order of the docs' table.
    public static let rules = [completesEveryCallOnce, finishesEveryFlowOnce]

    /// The first broken rule among `calls` (each a completion, by flow), `finishes` (how often
    /// each of the `flows` flows finished) and, live, how many call copies were `sent`. O(calls).
    static func violation(
        calls: [(flow: Int, record: FlowExecution.CallRecord)],
        finishes: [Int],
        sent: Int?
    ) -> ContractViolation? {
        var check = ContractCheck()
        var seen = Set<CallKey>()
        for (flow, r) in calls where !seen.insert(CallKey(flow: flow, slot: r.slot, copy: r.copy)).inserted {
            check.record(
                completesEveryCallOnce.violated(
                    at: "flow \(flow): the \(r.kind.rawValue) call's copy \(r.copy) completed again at \(r.end)"
                )
            )
            break
        }
        if let sent, sent != calls.count {
            check.record(completesEveryCallOnce.violated(at: "the end of the run: \(sent) call copies sent, \(calls.count) completions"))
        }
        if let flow = finishes.indices.first(where: { finishes[$0] != 1 }) {
            check.record(finishesEveryFlowOnce.violated(at: "the end of the run: flow \(flow) finished \(finishes[flow]) times"))
        }
        return check.first
    }

    private struct CallKey: Hashable {
        var flow: Int
        var slot: Int
        var copy: Int
    }
}
