import BenchSuite
import Readiness
import Synchronization

/// A launch coordinator after `DispatchGroup`: its sim form releases every waiting block at ready,
/// each in a main turn of its own, as `group.notify(queue: .main)` would.
///
/// The live form (`ReadinessAPI`) cannot keep `group.notify`: notify runs the released tasks on a
/// queue of its own, while the readiness contract (Signal's sync blocks) wants each task run on the
/// thread that calls `setAppIsReady`, before it returns; the re-entry probes fail a notify-based
/// form for it. So it keeps the waiting tasks under a lock and runs them itself, in registration
/// order, on the caller's thread. `isAppReady` is an atomic, so a task may read it or register
/// another task from any thread; a task registered after ready runs at once, on its own thread.
///
/// Registered in main.swift with:
/// ```swift
/// try suite.coordinators.register(
///     ReadinessVariant(name: "group", origin: .user, summary: "DispatchGroup: notify releases every task at ready",
///                      sim: { GroupReadinessPolicy(session: $0) }, live: { GroupReadiness() }))
/// ```
public final class GroupReadiness: ReadinessAPI, @unchecked Sendable {
    // The flag is set and the list taken under one lock, so a task registered at the same moment
    // either joins the list or runs itself, never neither. Tasks run outside the lock: one may
    // register another.
    private let waiting = Mutex<[@Sendable () -> Void]>([])
    private let ready = Atomic<Bool>(false)

    public init() {}

    public var isAppReady: Bool { ready.load(ordering: .acquiring) }

    public func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void) {
        let runNow = waiting.withLock { tasks in
            if ready.load(ordering: .acquiring) { return true }
            tasks.append(task)
            return false
        }
        if runNow { task() }
    }

    public func setAppIsReady() {
        let released = waiting.withLock { tasks -> [@Sendable () -> Void] in
            guard !ready.exchange(true, ordering: .acquiringAndReleasing) else { return [] }
            defer { tasks = [] }
            return tasks
        }
        for task in released { task() }
    }
}

/// The same design as a sim form (`ReadinessPolicy`): at app-ready every waiting block gets a
/// main turn of its own, in registration order (`group.notify(queue: .main)`), whatever its kind;
/// after ready a block runs at once. There is no UI flag: UI blocks go with the rest.
public final class GroupReadinessPolicy: ReadinessPolicy, @unchecked Sendable {
    // Confined to the main executor (registerOffMain only hops to it).
    private let session: LaunchSession
    private var ready = false
    private var waiting: [ReadinessBlock] = []

    public init(session: LaunchSession) { self.session = session }

    public func register(_ block: ReadinessBlock) {
        if ready { session.run(block, ownTurn: false) } else { waiting.append(block) }
    }

    public func registerOffMain(_ block: ReadinessBlock) { session.executor.async { [self] in register(block) } }

    public func setAppReady() {
        ready = true
        session.markAppReady()
        for block in waiting { session.executor.async { [session] in session.run(block, ownTurn: true) } }
        waiting = []
    }

    public func setUIReady() {}
}
