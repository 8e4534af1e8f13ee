/// One launch-coordination design: what it does when a block is registered, when the app and the
/// UI become ready, and (for a scheduler) when the main executor falls idle.
///
/// Every entry point except `registerOffMain` is called on the main executor. Implementations
/// are confined to it the way Signal's `@MainActor` code is; the one design whose off-main path
/// touches shared state (the article's) guards it with a lock.
package protocol ReadinessPolicy: AnyObject, Sendable {
    /// A registration from main-thread code.
    func register(_ block: ReadinessBlock)
    /// A registration from a background thread, on that thread.
    func registerOffMain(_ block: ReadinessBlock)
    /// The app-ready call, at the start of the ready turn (before the first screen is built).
    func setAppReady()
    /// The UI-ready call: when the first screen has appeared (in the NSE, right after app-ready).
    func setUIReady()
    /// The main executor has nothing queued.
    func onIdle()
    /// Work is waiting that only `onIdle` will start.
    var hasDeferredWork: Bool { get }
}

extension ReadinessPolicy {
    package func onIdle() {}
    package var hasDeferredWork: Bool { false }
}
