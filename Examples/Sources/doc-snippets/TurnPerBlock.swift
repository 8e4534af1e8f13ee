import BenchSuite
import Readiness

/// Everything at ready, each block in a main turn of its own, in registration order.
public final class TurnPerBlock: ReadinessPolicy, @unchecked Sendable {
    private let session: LaunchSession  // confined to the main executor
    private var ready = false, waiting: [ReadinessBlock] = []
    public init(session: LaunchSession) { self.session = session }
    public func register(_ b: ReadinessBlock) { ready ? session.run(b, ownTurn: false) : waiting.append(b) }
    public func registerOffMain(_ b: ReadinessBlock) { session.executor.async { [self] in register(b) } }
    public func setAppReady() {
        ready = true; session.markAppReady()
        for b in waiting { session.executor.async { [session] in session.run(b, ownTurn: true) } }
        waiting = []
    }
    public func setUIReady() {}
}
