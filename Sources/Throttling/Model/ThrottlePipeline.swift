/// What happens to a publish after the throttle lets it through: the second stage of the app.
///
/// - `observer`: the database-change delegate applies each incremental publish on the main
///   thread at once (build and apply, `a + b·n + g·n²`); a reset's reload is built off main and
///   landed on main. The first-order model most write-ups describe.
/// - `conversation`: Signal's conversation view (`CVLoadCoordinator`): every publish is merged
///   into a pending load request, a lastOnly debounce of 1 ms (a plain `async` on main) starts a
///   load when none is in flight, the load is built off the main thread and lands on main, and
///   landing starts the next load if more was requested meanwhile. A second coalescing stage with
///   back-pressure, and most update work off the main thread.
public enum ThrottlePipeline: String, CaseIterable, Hashable, Sendable {
    case observer
    case conversation

    public var summary: String {
        switch self {
        case .observer: "each publish is applied on the main thread (resets: built off main, landed on main)"
        case .conversation:
            "Signal's CVLoadCoordinator: publishes merge into one load request, lastOnly 1 ms, one load in flight, built off main, landed on main"
        }
    }
}
