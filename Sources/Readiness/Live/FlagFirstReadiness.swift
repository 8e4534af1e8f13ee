import Synchronization

/// Signal's `ReadyFlag` discipline, for real: the flag is an atomic set *first* under the lock
/// that swaps the task list out; the tasks then run with no lock held. Re-entry runs inline, a
/// reader on another thread never waits. Every design but the article's shares this property
/// (Signal 2018 sets an atomic property first too; the orchestrator and ours build on the flag).
package final class FlagFirstReadiness: ReadinessAPI, @unchecked Sendable {
    // `tasks` is protected by `lock`; `flag` is atomic.
    private let flag = Atomic<Bool>(false)
    private let lock = Mutex<[@Sendable () -> Void]>([])

    package init() {}

    package var isAppReady: Bool { flag.load(ordering: .acquiring) }

    package func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void) {
        let queued = lock.withLock { tasks -> Bool in
            if flag.load(ordering: .acquiring) { return false }
            tasks.append(task)
            return true
        }
        if !queued { task() }
    }

    package func setAppIsReady() {
        let toRun = lock.withLock { tasks -> [@Sendable () -> Void] in
            flag.store(true, ordering: .releasing)
            defer { tasks = [] }
            return tasks
        }
        for task in toRun { task() }
    }
}
