/// Signal's 2018 `AppReadiness.m`: one list of blocks; `setAppIsReady` sets the flag, then runs
/// every block synchronously in that turn (a stampede); after ready a block runs inline.
///
/// There was no will/did/polite/UI distinction: every kind is one `runNowOrWhenAppIsReady`.
package final class Signal2018Readiness: ReadinessPolicy, @unchecked Sendable {
    // Confined to the main executor.
    private let session: LaunchSession
    private var ready = false
    private var blocks: [ReadinessBlock] = []

    package init(session: LaunchSession) { self.session = session }

    package func register(_ block: ReadinessBlock) {
        ready ? session.run(block, ownTurn: false) : blocks.append(block)
    }

    package func registerOffMain(_ block: ReadinessBlock) {
        session.executor.async { [self] in register(block) }
    }

    package func setAppReady() {
        ready = true
        session.markAppReady()
        let all = blocks
        blocks = []
        for b in all { session.run(b, ownTurn: false) }
    }

    package func setUIReady() {}
}
