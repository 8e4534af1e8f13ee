import Simulation

/// The process a launch happens in. Signal's extensions link the same SignalServiceKit, so they
/// register the same readiness blocks; what differs is whether there is a screen (frames, input)
/// and whether main-app-only blocks do anything when their turn comes.
package enum ProcessContext: String, CaseIterable, Sendable {
    case mainApp = "main-app"
    case nse
    case shareExtension = "share-extension"

    /// A screen to draw: frames at the display's rate and user input.
    package var hasUI: Bool { self != .nse }
    package var isMainApp: Bool { self == .mainApp }

    /// Main-thread work before globals: database open, migrations, app delegate (assumed).
    package var prelaunch: SimDuration {
        switch self {
        case .mainApp: .milliseconds(120)
        case .nse: .milliseconds(50)
        case .shareExtension: .milliseconds(70)
        }
    }

    /// Building the first screen, in the ready turn (Signal builds it right after setting ready).
    package var firstScreen: SimDuration {
        switch self {
        case .mainApp: .milliseconds(35)
        case .nse: .zero
        case .shareExtension: .milliseconds(20)
        }
    }
}
