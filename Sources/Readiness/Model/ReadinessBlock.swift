import Simulation

/// One readiness block of a launch: what it is, when and from where it is registered, and what
/// running it costs. A policy reads it to decide when to run it and hands it to `LaunchSession.run`.
public struct ReadinessBlock: Sendable, Hashable {
    /// Where the registration call comes from.
    package enum Registration: Sendable, Hashable {
        /// On the main thread during launch (AppSetup, app delegate): always before ready.
        case launch
        /// From main-thread code at this time (a view controller, a notification handler).
        case main(SimInstant)
        /// From a background thread at this time (Signal hops through `main.async` first).
        case offMain(SimInstant)
    }

    /// Registration order within the launch (0-based, by registration time; ties by id).
    public package(set) var id: Int
    /// Which list it belongs to: `.will`, `.did`, `.ui` or `.polite`.
    public package(set) var kind: BlockKind
    /// `runNowOrWhenMainAppDidBecomeReadyAsync`: checks the context when it runs.
    public package(set) var mainAppOnly: Bool
    package var registration: Registration
    /// Main-thread time the block's own work takes (when it does work).
    public package(set) var duration: SimDuration
    /// What a scheduler that learned the block's duration from earlier launches expects
    /// (within ×/÷2 of `duration`); only the frame-aware scheduler looks at it.
    public package(set) var estimate: SimDuration
    /// Services the block resolves (built on first use under lazy globals).
    public package(set) var services: [Int]
    /// The intent priority the orchestrator variant declares for it (0 highest).
    public package(set) var intentPriority: Int

    /// The cost of a no-op block: a main-app-only block in an extension returns at once.
    package static let noOpCost = SimDuration.microseconds(5)
}
