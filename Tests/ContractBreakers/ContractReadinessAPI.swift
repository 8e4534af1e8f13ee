import Foundation
import Readiness

/// Which rule of `ReadinessContract` a `ContractReadinessAPI` breaks in the re-entry probes, if any.
public enum ReadinessAPIFault: Sendable {
    case none
    /// Runs the waiting tasks before it sets the flag and then empties the list, so a task
    /// registered by a running task (the re-entry probe's second) is never run.
    case dropsReentrantTasks
    /// Runs the waiting tasks on a thread of its own (and waits for it): once each and before
    /// `setAppIsReady` returns, but off the thread that called it.
    case runsTasksOnAnotherThread
}

/// Signal's flag-first discipline under a lock (the control, without a fault); `fault` breaks one
/// rule of the contract the live form keeps.
public final class ContractReadinessAPI: ReadinessAPI, @unchecked Sendable {
    // `ready` and `tasks` are protected by `lock`.
    private let lock = NSLock()
    private var ready = false
    private var tasks: [@Sendable () -> Void] = []
    private let fault: ReadinessAPIFault

    public init(fault: ReadinessAPIFault) { self.fault = fault }

    public var isAppReady: Bool { lock.withLock { ready } }

    public func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void) {
        let queued = lock.withLock { () -> Bool in
            if ready { return false }
            tasks.append(task)
            return true
        }
        if !queued { task() }
    }

    public func setAppIsReady() {
        if fault == .dropsReentrantTasks {
            for task in lock.withLock({ tasks }) { task() }
            lock.withLock {
                tasks = []
                ready = true
            }
            return
        }
        let waiting = lock.withLock { () -> [@Sendable () -> Void] in
            ready = true
            defer { tasks = [] }
            return tasks
        }
        guard fault == .runsTasksOnAnotherThread else { return waiting.forEach { $0() } }
        let done = DispatchSemaphore(value: 0)
        Thread {
            waiting.forEach { $0() }
            done.signal()
        }.start()
        done.wait()
    }
}
