import Simulation

/// Signal's `AppReadinessImpl` on two `ReadyFlag`s (SignalServiceKit/Util/ReadyFlag.swift).
///
/// `setAppReady` flips the flag first, then runs every will block, then every did block, FIFO and
/// inline in the ready turn; then the polite chain: one block per main turn, the first 25 ms after
/// the ready call returns, each next one 25 ms after the previous one finished. After ready, sync
/// kinds run inline and polite kinds go to a plain `main.async` — overtaking the chain. Off-main
/// registrations hop through `main.async` first (`DispatchMainThreadSafe`). With `nonStrictSort`
/// every list first goes through the ~2021 `<=` sort (all priorities 0): LIFO.
package final class SignalReadiness: ReadinessPolicy, @unchecked Sendable {
    // Confined to the main executor (every entry point but registerOffMain, which only hops).
    package static let politeDelay = SimDuration.milliseconds(25)
    private let session: LaunchSession
    private let nonStrictSort: Bool
    private let gates = ReadinessGates()
    private var polite: [ReadinessBlock] = []

    package init(session: LaunchSession, nonStrictSort: Bool) {
        self.session = session
        self.nonStrictSort = nonStrictSort
    }

    private func order(_ blocks: [ReadinessBlock]) -> [ReadinessBlock] {
        nonStrictSort ? NonStrictPrioritySort.sorted(blocks) { _ in 0 } : blocks
    }

    package func register(_ block: ReadinessBlock) {
        if gates.register(block, in: session) { return }
        if gates.appReady {
            // "Always perform async blocks async": a plain main.async, no 25 ms delay.
            session.executor.async { [self] in session.run(block, ownTurn: true) }
        } else {
            polite.append(block)
        }
    }

    package func registerOffMain(_ block: ReadinessBlock) {
        session.executor.async { [self] in register(block) }
    }

    package func setAppReady() {
        let p = order(polite)
        polite = []
        gates.setAppReady(in: session, order: order)
        chain(p[...])
    }

    /// `performDidBecomeReadyAsyncTasks`: asyncAfter 25 ms, run the first, recurse on the rest.
    private func chain(_ tasks: ArraySlice<ReadinessBlock>) {
        session.executor.asyncAfter(Self.politeDelay) { [self] in
            guard let first = tasks.first else { return }
            session.run(first, ownTurn: true)
            chain(tasks.dropFirst())
        }
    }

    package func setUIReady() {
        gates.setUIReady(in: session, order: order)
    }
}
