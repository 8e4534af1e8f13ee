import Readiness
import Synchronization

/// Which rule of `ReadinessContract` a `ContractCoordinator` breaks, if any.
public enum CoordinatorFault: Sendable {
    case none
    /// Forgets every block registered before ready (its drain is then 0 ms).
    case dropsEarlyBlocks
    /// Runs every block registered after ready twice.
    case runsEachTwice
    /// Runs a block registered off main after ready on that thread, whatever its kind.
    case runsOffMainRegistrationsInPlace
    /// Keeps every block registered before ready as deferred work it never starts: the launch
    /// never drains, and a live one runs into its time limit.
    case holdsEarlyBlocks
}

/// Everything at ready, each block in a turn of its own, in registration order; `fault` breaks one
/// rule. Without a fault it is the control.
public final class ContractCoordinator: ReadinessPolicy, @unchecked Sendable {
    private let session: LaunchSession  // confined to the main executor
    private let fault: CoordinatorFault
    private var waiting: [ReadinessBlock] = []
    /// Atomic: the in-place fault reads it from the registering thread, and the breaker's fault is
    /// where the block runs, not a data race of its own (TSan runs these tests).
    private let isReady = Atomic<Bool>(false)
    private var ready: Bool { isReady.load(ordering: .acquiring) }

    public init(session: LaunchSession, fault: CoordinatorFault) {
        self.session = session
        self.fault = fault
    }

    public func register(_ b: ReadinessBlock) {
        guard ready else {
            if fault != .dropsEarlyBlocks { waiting.append(b) }
            return
        }
        session.run(b, ownTurn: false)
        if fault == .runsEachTwice { session.run(b, ownTurn: false) }
    }

    public func registerOffMain(_ b: ReadinessBlock) {
        if fault == .runsOffMainRegistrationsInPlace, ready { return session.run(b, ownTurn: false) }
        session.executor.async { [self] in register(b) }
    }

    public func setAppReady() {
        isReady.store(true, ordering: .releasing)
        session.markAppReady()
        if fault == .holdsEarlyBlocks { return }
        for b in waiting { session.executor.async { [session] in session.run(b, ownTurn: true) } }
        waiting = []
    }

    public func setUIReady() {}

    public var hasDeferredWork: Bool { fault == .holdsEarlyBlocks && !waiting.isEmpty }
}
