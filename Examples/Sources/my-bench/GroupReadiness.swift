import BenchSuite
import Dispatch
import Readiness
import Synchronization

/// A launch coordinator built on `DispatchGroup`, with the AppReadiness API: the group is entered
/// once at creation and left by `setAppIsReady`, which releases every waiting task through
/// `group.notify`, in registration order, on one serial queue.
///
/// The live form (`ReadinessAPI`): `isAppReady` is an atomic, so a task may read it or register
/// another task from any thread (a task registered after ready runs inline). `setAppIsReady`
/// returns once the released tasks have run (`queue.sync {}` after `leave`), as Signal's sync
/// blocks do; it must not be called from one of its own tasks (that `sync` would trap). The
/// private queue stands in for `.main`: the re-entry probes' child process has no main run loop.
///
/// Registered in main.swift with:
/// ```swift
/// try suite.coordinators.register(
///     ReadinessVariant(name: "group", origin: .user, summary: "DispatchGroup: notify releases every task at ready",
///                      sim: { GroupReadinessPolicy(session: $0) }, live: { GroupReadiness() }))
/// ```
public final class GroupReadiness: ReadinessAPI, @unchecked Sendable {
    // `ready` is atomic; DispatchGroup and DispatchQueue are thread-safe themselves.
    private let group = DispatchGroup()
    private let queue = DispatchQueue(label: "group-readiness")
    private let ready = Atomic<Bool>(false)

    public init() { group.enter() }

    public var isAppReady: Bool { ready.load(ordering: .acquiring) }

    public func runNowOrWhenAppIsReady(_ task: @escaping @Sendable () -> Void) {
        if isAppReady { return task() }
        group.notify(queue: queue, execute: task)
    }

    public func setAppIsReady() {
        guard !ready.exchange(true, ordering: .acquiringAndReleasing) else { return }
        group.leave()
        queue.sync {}
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
