import Synchronization

/// The article's lightweight AppReadiness: a private serial queue; `setAppIsReady` runs the queued
/// tasks inside `queue.sync` on the caller's thread *before* setting the flag; after ready a task
/// runs at once on the registering thread (no hop to main); `isAppReady` waits on the same queue.
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
        if runNow { session.runOffMain(block) }
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
