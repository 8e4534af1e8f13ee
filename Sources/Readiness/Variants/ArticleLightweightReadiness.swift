import Synchronization

/// The article's lightweight AppReadiness: a private serial queue; `setAppIsReady` runs the queued
/// tasks inside `queue.sync` on the caller's thread *before* setting the flag; after ready a polite
/// task runs at once on the registering thread (no hop to main); `isAppReady` waits on the same queue.
///
/// The article's class has one list and no kinds; put behind Signal's API it must still run a will,
/// did or UI block on main (`ReadinessContract.runsOnItsThread`: Signal's sync kinds hop through
/// `DispatchMainThreadSafe`, and their callers touch main-only state). Run on the registering
/// thread as the article has it, a did block registered off main after ready ran on a background
/// thread, and the harness fails the item; so after ready a sync-kind block registered off main
/// hops to main (`main.async`), as the adapter a team would write must do, and only polite ones
/// stay on the registering thread.
///
/// The lock stands for the serial queue: held while the tasks run, so a registration from another
/// thread during the ready turn waits, as `queue.sync` would. (Its failure modes — re-entry traps,
/// a cross-thread wait deadlocks — are shown live by `LightweightAppReadiness`.)
package final class ArticleLightweightReadiness: ReadinessPolicy, @unchecked Sendable {
    // `state` is protected by its Mutex; `session` is used on whichever thread calls.
    private struct State {
        var ready = false
        var tasks: [ReadinessBlock] = []
    }

    private let session: LaunchSession
    private let state = Mutex(State())

    package init(session: LaunchSession) { self.session = session }

    package func register(_ block: ReadinessBlock) {
        let runNow = state.withLock { s in
            if s.ready { return true }
            s.tasks.append(block)
            return false
        }
        if runNow { session.run(block, ownTurn: false) }
    }

    package func registerOffMain(_ block: ReadinessBlock) {
        let runNow = state.withLock { s in
            if s.ready { return true }
            s.tasks.append(block)
            return false
        }
        guard runNow else { return }
        if block.kind == .polite {
            session.runOffMain(block)
        } else {
            session.executor.async { [session] in session.run(block, ownTurn: true) }
        }
    }

    package func setAppReady() {
        state.withLock { s in
            for task in s.tasks { session.run(task, ownTurn: false) }
            s.tasks = []
            s.ready = true
        }
        session.markAppReady()
    }

    package func setUIReady() {}
}
