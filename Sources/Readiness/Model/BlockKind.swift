/// The four kinds of readiness block Signal's `AppReadiness` accepts.
public enum BlockKind: String, CaseIterable, Sendable {
    /// `runNowOrWhenAppWillBecomeReady`: internal setup, run first in the ready turn.
    case will
    /// `runNowOrWhenAppDidBecomeReadySync`: run in the ready turn after every will block.
    case did
    /// `runNowOrWhenUIDidBecomeReadySync`: run when the first screen has appeared.
    case ui
    /// `runNowOrWhenAppDidBecomeReadyAsync` (and its main-app-only form): the polite chain.
    case polite

    /// Its place in `allCases`: a switch, so that a new case fails to compile here rather than
    /// share a slot of a table indexed by it.
    var ordinal: Int {
        switch self {
        case .will: 0
        case .did: 1
        case .ui: 2
        case .polite: 3
        }
    }
}
