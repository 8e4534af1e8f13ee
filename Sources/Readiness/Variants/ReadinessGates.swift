/// The will, did and UI gates of Signal's AppReadiness, for every design that keeps them as
/// Signal does (Signal today and ~2021, ours): a block registered before its flag waits in its
/// list; after, it runs at once, inline; setting the flag runs the waiting list in the ready turn.
/// Polite (deferred) blocks are where the designs differ, so each keeps those itself.
///
/// A class, not a struct: running a block may register another (re-entering the owner), which a
/// mutating method in progress on a stored struct would not allow. Confined, like its owner, to
/// the main executor.
final class ReadinessGates {
    private(set) var appReady = false
    private(set) var uiReady = false
    private var will: [ReadinessBlock] = []
    private var did: [ReadinessBlock] = []
    private var ui: [ReadinessBlock] = []

    /// Runs a will, did or UI block now if its flag is set, else keeps it for the flag; false for
    /// a polite block, which the caller handles.
    func register(_ block: ReadinessBlock, in session: LaunchSession) -> Bool {
        switch block.kind {
        case .will: appReady ? session.run(block, ownTurn: false) : will.append(block)
        case .did: appReady ? session.run(block, ownTurn: false) : did.append(block)
        case .ui: uiReady ? session.run(block, ownTurn: false) : ui.append(block)
        case .polite: return false
        }
        return true
    }

    /// Sets the app-ready flag, then runs the waiting will blocks and then the did blocks, each
    /// list in `order` (registration order unless a design sorts it).
    func setAppReady(in session: LaunchSession, order: ([ReadinessBlock]) -> [ReadinessBlock] = { $0 }) {
        appReady = true
        session.markAppReady()
        let (w, d) = (order(will), order(did))
        (will, did) = ([], [])
        for b in w { session.run(b, ownTurn: false) }
        for b in d { session.run(b, ownTurn: false) }
    }

    /// Sets the UI-ready flag, then runs the waiting UI blocks in `order`.
    func setUIReady(in session: LaunchSession, order: ([ReadinessBlock]) -> [ReadinessBlock] = { $0 }) {
        uiReady = true
        let u = order(ui)
        ui = []
        for b in u { session.run(b, ownTurn: false) }
    }
}
