/// The live form of a launch coordinator: an AppReadiness as app code calls it, from any thread
/// (the shape of Signal's 2018 `AppReadiness` and of the article's class).
///
/// `--mode live --scenario reentrant-tasks` builds a fresh instance in a child process of the
/// benchmark executable and runs two probes on real threads: a task run by `setAppIsReady` reads
/// `isAppReady` and registers another task on the same thread (re-entry); a task waits for another
/// thread that reads `isAppReady` (cross-thread wait). A probe completes when every task has run
/// by the time `setAppIsReady` returns; a trap or a hang (the watchdog kills the child) is counted.
///
/// `runNowOrWhenAppIsReady` runs `task` at once when the app is ready, otherwise when
/// `setAppIsReady` is called — before it returns (Signal's sync blocks). Any method may be called
/// from any thread, including from inside a task.
public protocol ReadinessAPI: AnyObject, Sendable {
    /// Whether `setAppIsReady()` has been called.
    var isAppReady: Bool { get }
    /// Runs `task` now if the app is ready, else when `setAppIsReady()` is called.
    func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void)
    /// Marks the app ready and runs the waiting tasks before it returns.
    func setAppIsReady()
}
