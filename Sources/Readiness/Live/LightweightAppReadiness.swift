import Dispatch

/// The article's lightweight AppReadiness, for real: a private serial `DispatchQueue`, tasks run
/// inside `queue.sync` on the caller's thread before the flag is set, `isAppReady` reads the flag
/// through `queue.sync` too.
///
/// A task that calls back into it (reads `isAppReady`, registers a task) runs `queue.sync` on the
/// queue its own thread already holds: libdispatch traps ("dispatch_sync called on queue already
/// owned by current thread"). A task that waits for another thread reading `isAppReady`
/// deadlocks. Only ever used in a child process (see `ReadinessProbe`).
package final class LightweightAppReadiness: ReadinessAPI, @unchecked Sendable {
    // `ready` and `tasks` are touched only inside `queue.sync`.
    private let queue = DispatchQueue(label: "app-readiness")
    private var ready = false
    private var tasks: [@Sendable () -> Void] = []

    package init() {}

    package var isAppReady: Bool { queue.sync { ready } }

    package func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void) {
        let runNow = queue.sync { () -> Bool in
            if ready { return true }
            tasks.append(task)
            return false
        }
        if runNow { task() }
    }

    package func setAppIsReady() {
        queue.sync {
            for task in tasks { task() }
            tasks = []
            ready = true
        }
    }
}
