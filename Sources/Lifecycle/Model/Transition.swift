import Simulation

/// One thing the OS or the user does to the app: a line of a `--trace` file, or an event of a
/// generated session.
package enum Transition: String, Sendable, Hashable, CaseIterable {
    /// Cold launch into the foreground: begins a session (a process lifetime).
    case launch
    /// scenePhase `.active` (didBecomeActive); may repeat.
    case active
    /// scenePhase `.inactive` (willResignActive); may repeat.
    case inactive
    /// didEnterBackground (scenePhase `.background`); may repeat.
    case background
    /// willEnterForeground from the background or suspended state.
    case foreground
    /// The user changes something (a message, a draft, a setting) in the foreground.
    case edit
    /// A BGAppRefreshTask window opens while the app is in the background or suspended.
    case refresh
    /// Memory pressure: jetsam kills a background app whose footprint is above its limit.
    case pressure
    /// A silent kill (SIGKILL): the OS reclaims a suspended app, or the user swipes it away.
    case kill
    /// System termination: `willTerminate` is delivered if the app is running, else a silent kill.
    case terminate

    package var summary: String {
        switch self {
        case .launch: "cold launch into the foreground (starts a session)"
        case .active: "scenePhase active / didBecomeActive (repeats allowed)"
        case .inactive: "scenePhase inactive / willResignActive (repeats allowed)"
        case .background: "didEnterBackground (repeats allowed)"
        case .foreground: "willEnterForeground (resume)"
        case .edit: "a change the user makes"
        case .refresh: "a BGAppRefreshTask window"
        case .pressure: "memory pressure: jetsam of a background app over its limit"
        case .kill: "silent SIGKILL (OS reclaim of a suspended app, or a swipe)"
        case .terminate: "termination: willTerminate if running, else a silent kill"
        }
    }
}

/// One session's transitions in time order (times from the session's launch), plus the draws the
/// app's costs take from, made once per session so that every variant meets the same session.
package struct SessionScript: Sendable, Hashable {
    package struct Event: Sendable, Hashable {
        package var time: SimInstant
        package var transition: Transition
    }

    package var events: [Event]
    /// The migration this session's launch finds pending (nil: none).
    package var migration: SimDuration?
    /// Cost draws for the k-th save, init item, observer, … (indexed modulo their count).
    package var draws: CostDraws

    package init(events: [Event], migration: SimDuration? = nil, draws: CostDraws) {
        self.events = events
        self.migration = migration
        self.draws = draws
    }
}
