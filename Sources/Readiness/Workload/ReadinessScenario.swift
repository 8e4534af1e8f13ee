/// A named scenario (`--scenario`): a launch in one process context (sim and live), or one of the
/// live-only demonstrations.
package enum ReadinessScenario: String, CaseIterable, Sendable {
    case mainApp = "main-app"
    case nse
    case shareExtension = "share-extension"
    case reentrantTasks = "reentrant-tasks"
    case concurrentFirstUse = "concurrent-first-use"

    package var context: ProcessContext? { ProcessContext(rawValue: rawValue) }
    package var isLiveOnly: Bool { context == nil }

    package var summary: String {
        switch self {
        case .mainApp: "cold launch of the main app: first screen, frames, open-loop taps and scrolls"
        case .nse: "notification service extension: no screen; main-app-only polite blocks still take a slot"
        case .shareExtension: "share extension: a screen and input; main-app-only polite blocks still take a slot"
        case .reentrantTasks:
            "live only: a task re-enters the readiness API, and a task waits for a thread calling isAppReady (child processes, watchdog)"
        case .concurrentFirstUse: "live only: threads resolve the same services at once for the first time (duplicate instances)"
        }
    }
}
