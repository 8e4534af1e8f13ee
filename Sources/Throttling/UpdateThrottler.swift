import Records
import Simulation

/// A UI-update throttling policy: decides when the main thread turns pending database changes
/// into a UI update.
///
/// A policy never reads a clock. The host — the virtual-time simulator or the live runner —
/// calls it on the main thread with a `ThrottleContext` that carries the time, and carries out
/// the returned `ThrottleDecision`. That is what lets the same policy code run in virtual time
/// (deterministic) and live (real threads and clocks).
///
/// **Contract** (`ThrottleContract`, checked on every item, sim and live; a policy that breaks it
/// fails the item instead of being ranked): every committed row is published by the end of the run,
/// a partial publish asks for at least one row (`.upTo(rows:)` > 0), and a timer is never armed
/// before `context.now`.
public protocol UpdateThrottler: Sendable {
    /// A database commit's notification reached the main thread; its rows are already pending.
    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision
    /// The policy's single timer fired (on the main thread).
    mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision
    /// The policy's display link ticked (on the main thread), while running.
    mutating func displayLinkTicked(_ context: ThrottleContext) -> ThrottleDecision
    /// A frame's work just finished on the main thread, taking `frameCost`; the next frame is
    /// queued at `context.nextVsync`. An update published here runs before anything else queued.
    mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision
    /// A frame reached the screen at `time` (an observation; no decision).
    mutating func framePresented(at time: SimInstant)
    /// A publish this policy asked for ran: `rows` rows in `cost` of main-thread time — the update
    /// applied on main (observer pipeline), or only the delegate merging it into the load request
    /// (conversation pipeline, and resets: the load itself is built off main and lands later,
    /// outside the policy's control).
    mutating func updateApplied(rows: Int, reset: Bool, cost: SimDuration)
    /// A publish this policy asked for has finished on the main thread (Signal's `defer {
    /// ensureDisplayLink() }`); `context.pendingCommits` counts what was committed meanwhile.
    mutating func publishFinished(_ context: ThrottleContext) -> ThrottleDecision
    /// Values the policy measured about itself (for example how many samples Signal's estimator
    /// held at each decision), reported with the run's metrics.
    func observations() -> [Observation]
}

extension UpdateThrottler {
    public mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision { .none }
    public mutating func displayLinkTicked(_ context: ThrottleContext) -> ThrottleDecision { .none }
    public mutating func frameCompleted(_ context: ThrottleContext, frameCost: SimDuration) -> ThrottleDecision { .none }
    public mutating func framePresented(at time: SimInstant) {}
    public mutating func updateApplied(rows: Int, reset: Bool, cost: SimDuration) {}
    public mutating func publishFinished(_ context: ThrottleContext) -> ThrottleDecision { .none }
    public func observations() -> [Observation] { [] }
}

/// What a policy sees when it is called: the time and the state of the pending set.
public struct ThrottleContext: Sendable {
    /// The time the main thread started running this callback.
    public var now: SimInstant
    /// Rows and commits committed but not yet published. A commit joins this set at commit time
    /// on the writer thread, before its main-thread notification runs (as in Signal).
    public var pendingRows: Int
    /// Commits committed but not yet published.
    public var pendingCommits: Int
    /// When the oldest pending commit was committed (nil when nothing is pending).
    public var oldestPending: SimInstant?
    /// The display's refresh interval and the time of the next vsync after `now`.
    public var vsyncInterval: SimDuration
    /// The time of the next vsync after `now`.
    public var nextVsync: SimInstant
    /// Rows in the oldest pending commit (0 when nothing is pending): the smallest publishable batch.
    public var oldestPendingRows: Int
    /// Whether a frame is already queued, waiting for the main thread (it will run right after
    /// this callback); otherwise the next frame is queued at `nextVsync`.
    public var frameQueued: Bool
    /// Rows at or above which a single commit (transaction) makes its publish a full reset.
    public var resetThreshold: Int
    /// Pending commits that alone touched `resetThreshold` rows or more: publishing any of them
    /// reloads the view (Signal's `changeTooLarge`), whatever else is in the batch.
    public var pendingResets: Int

    /// A context (the simulator and the live runner build it; tests may too).
    public init(
        now: SimInstant,
        pendingRows: Int,
        pendingCommits: Int,
        oldestPending: SimInstant?,
        oldestPendingRows: Int,
        vsyncInterval: SimDuration,
        nextVsync: SimInstant,
        frameQueued: Bool,
        resetThreshold: Int,
        pendingResets: Int = 0
    ) {
        self.now = now
        self.pendingRows = pendingRows
        self.pendingCommits = pendingCommits
        self.oldestPending = oldestPending
        self.vsyncInterval = vsyncInterval
        self.nextVsync = nextVsync
        self.oldestPendingRows = oldestPendingRows
        self.frameQueued = frameQueued
        self.resetThreshold = resetThreshold
        self.pendingResets = pendingResets
    }
}

/// What the host must do after a policy callback, as plain data (no closures, no allocation).
public struct ThrottleDecision: Hashable, Sendable {
    /// Which pending changes to publish now.
    public enum Publish: Hashable, Sendable {
        /// Publish nothing.
        case nothing
        /// Publish every pending change.
        case all
        /// Publish the oldest pending commits, whole, up to this many rows (at least one commit).
        case upTo(rows: Int)
    }

    /// What to do with the policy's one timer.
    public enum Timer: Hashable, Sendable {
        /// Leave it as it is (armed or not).
        case unchanged
        /// (Re)arm the policy's one timer to fire at this time; replaces any armed time.
        case fire(at: SimInstant)
        /// Disarm it.
        case cancel
    }

    /// Whether the display link runs: `run` calls `displayLinkTicked(_:)` every vsync until a decision pauses it.
    public enum DisplayLink: Hashable, Sendable {
        /// Leave it, start it, or stop it.
        case unchanged, run, pause
    }

    /// What to publish now.
    public var publish: Publish
    /// What to do with the timer.
    public var timer: Timer
    /// What to do with the display link.
    public var displayLink: DisplayLink

    /// A decision; every command defaults to doing nothing.
    public init(publish: Publish = .nothing, timer: Timer = .unchanged, displayLink: DisplayLink = .unchanged) {
        self.publish = publish
        self.timer = timer
        self.displayLink = displayLink
    }

    /// Publish nothing, leave the timer and the display link as they are.
    public static let none = ThrottleDecision()
}
