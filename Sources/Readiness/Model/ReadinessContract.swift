import Measurement
import Simulation

/// What every `ReadinessPolicy` promises the harness, checked on every launch, in virtual time and
/// live, from what the session recorded (`LaunchRecorder`): one pass over the launch's ~60 blocks
/// after it ran.
///
/// Without it, a coordinator that drops every block registered before ready reports a drain of
/// 0 ms and is ranked first: the drain can only measure blocks that ran.
public enum ReadinessContract {
    /// The role's name in the contract table and the failure line.
    public static let role = "readiness"

    /// No block is lost or run twice. A main-app-only block outside the main app does nothing
    /// (Signal's `runNowOrWhenMainAppDidBecomeReadyAsync` checks the context when it runs), so a
    /// design may drop it at registration; it must still not run twice.
    public static let startsEveryBlockOnce = ContractRule(
        role: role,
        statement:
            "every registered block starts exactly once before the run ends (a main-app-only block outside the main app may be skipped)"
    )

    /// The sync kinds run where Signal's callers expect them: `runNowOrWhenAppWillBecomeReady`,
    /// `…DidBecomeReadySync` and `…UIDidBecomeReadySync` hop to the main thread
    /// (`DispatchMainThreadSafe` in Signal's AppReadiness.swift); only a polite (async) block may
    /// run on another thread.
    public static let runsOnItsThread = ContractRule(
        role: role,
        statement: "will, did and ui blocks run on the main executor (session.run on main); polite ones may run off main"
    )

    /// Every rule, in the order of the docs' table.
    public static let rules = [startsEveryBlockOnce, runsOnItsThread]
}

extension LaunchRecorder {
    /// The first broken rule of `ReadinessContract` in this launch of `plan`, which ended at `end`
    /// (cut off by `endedBy`, when it did not drain).
    package func contractViolation(plan: LaunchPlan, end: SimInstant, endedBy: String? = nil) -> ContractViolation? {
        var check = ContractCheck()
        var started = [Int](repeating: 0, count: plan.blocks.count)
        let all = allRuns
        for run in all.sorted(by: { $0.start < $1.start }) {
            let id = run.block.id
            guard started.indices.contains(id) else { continue }
            started[id] += 1
            check.require(
                started[id] == 1,
                ReadinessContract.startsEveryBlockOnce,
                at: "\(Self.name(run.block)) started again at \(run.start)"
            )
            check.require(
                run.onMain || run.block.kind == .polite,
                ReadinessContract.runsOnItsThread,
                at: "\(Self.name(run.block)) ran off the main executor at \(run.start)"
            )
        }
        let lostBlocks = started.indices.filter { started[$0] == 0 && !(plan.blocks[$0].mainAppOnly && !plan.context.isMainApp) }
        if let lost = lostBlocks.first {
            let missing = lostBlocks.count
            check.require(
                false,
                ReadinessContract.startsEveryBlockOnce,
                at:
                    "the end of the run at \(end)\(endedBy.map { " (\($0))" } ?? ""): \(Self.name(plan.blocks[lost])) never started (\(missing) of \(plan.blocks.count) blocks)"
            )
        }
        return check.first
    }

    /// A block as the failure line names it: `block 12 (did, registered at launch)`.
    static func name(_ block: ReadinessBlock) -> String {
        let registered: String
        switch block.registration {
        case .launch: registered = "at launch"
        case .main(let t): registered = "on main at \(t)"
        case .offMain(let t): registered = "off main at \(t)"
        }
        return "block \(block.id) (\(block.kind.rawValue), registered \(registered))"
    }
}
