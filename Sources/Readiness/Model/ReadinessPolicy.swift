/// The sim form of a launch coordinator: what it does when a readiness block is registered, when
/// the app and the UI become ready, and (for a scheduler) when the main executor falls idle.
///
/// It runs on one serial main executor (`LaunchSession.executor`): the virtual-time
/// `SimMainExecutor` in `--mode sim` (deterministic), and the same policy on a real thread
/// (`LiveMainExecutor`) in a `--mode live` launch, beside its simulation.
///
/// Every entry point except `registerOffMain` is called on the main executor, one at a time, so
/// the policy is confined to it like Signal's `@MainActor` code and needs no lock.
/// `registerOffMain` is called on a background thread: hop to main with
/// `session.executor.async { … }` (as Signal does) or guard shared state with a lock.
///
/// Run a block with `session.run(block, ownTurn:)` (inline in the current turn, or `ownTurn: true`
/// inside a turn the policy enqueued with `executor.async`/`asyncAfter`), so every design pays the
/// same costs and the recorder sees every block; call `session.markAppReady()` when the app-ready
/// flag flips. What it must not do: read a clock (time is `executor.now`), sleep or block the
/// executor, or drop a block (every registered block must run, or be a main-app-only no-op).
///
/// **Contract** (`ReadinessContract`, checked after every launch, sim and live; a policy that
/// breaks it fails the item instead of being ranked): every registered block starts exactly once
/// before the run ends (a main-app-only block outside the main app may be skipped), and will, did
/// and UI blocks run on the main executor; only polite ones may run off main (`runOffMain`).
public protocol ReadinessPolicy: AnyObject, Sendable {
    /// A registration from main-thread code (at launch, or later from a view or a handler).
    func register(_ block: ReadinessBlock)
    /// A registration from a background thread, on that thread.
    func registerOffMain(_ block: ReadinessBlock)
    /// The app-ready call, at the start of the ready turn (before the first screen is built).
    func setAppReady()
    /// The UI-ready call: when the first screen has appeared (in the NSE, right after app-ready).
    func setUIReady()
    /// The main executor has nothing queued (a scheduler starts deferred work here).
    func onIdle()
    /// Work is waiting that only `onIdle` will start.
    var hasDeferredWork: Bool { get }
}

extension ReadinessPolicy {
    public func onIdle() {}
    public var hasDeferredWork: Bool { false }
}
