/// The lifecycle article's design (no counterpart in Signal): work is declared as intents with a
/// priority; an orchestrator starts them on lifecycle phases.
///
/// Modelled as: will/did work is the `launching` phase's critical intents, run in the ready turn;
/// UI and polite work are intents started when the scene becomes active (the first screen shown;
/// in the NSE, at ready), every pending intent at once in priority order (UI first, then the
/// declared priority, stable), each as its own main-actor turn. An intent declared later starts at
/// once. Stopping on phases is not exercised by a launch.
package final class IntentOrchestrator: ReadinessPolicy, @unchecked Sendable {
    // Confined to the main executor.
    private let session: LaunchSession
    private var launched = false
    private var active = false
    private var critical: [ReadinessBlock] = []
    private var pending: [ReadinessBlock] = []

    package init(session: LaunchSession) { self.session = session }

    package func register(_ block: ReadinessBlock) {
        switch block.kind {
        case .will, .did: launched ? session.run(block, ownTurn: false) : critical.append(block)
        case .ui, .polite: active ? start([block]) : pending.append(block)
        }
    }

    package func registerOffMain(_ block: ReadinessBlock) {
        session.executor.async { [self] in register(block) }
    }

    package func setAppReady() {
        launched = true
        session.markAppReady()
        let c = critical.filter { $0.kind == .will } + critical.filter { $0.kind == .did }
        critical = []
        for b in c { session.run(b, ownTurn: false) }
    }

    package func setUIReady() {
        active = true
        let all = pending
        pending = []
        start(all)
    }

    private func rank(_ b: ReadinessBlock) -> Int { b.kind == .ui ? -1 : b.intentPriority }

    private func start(_ intents: [ReadinessBlock]) {
        let ordered = intents.enumerated().sorted { a, b in
            rank(a.element) != rank(b.element) ? rank(a.element) < rank(b.element) : a.offset < b.offset
        }
        for (_, intent) in ordered {
            session.executor.async { [self] in session.run(intent, ownTurn: true) }
        }
    }
}
