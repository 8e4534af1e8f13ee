/// What an app does at each point of its lifecycle: the role a lifecycle strategy fills.
///
/// A strategy is a declaration, not code the model calls back: how a change the user makes becomes
/// durable, what runs on the main thread at launch, resume and the background transition, what a
/// background refresh does when its time runs out. The OS model (`LifecycleSimulation`) executes
/// the declaration under iOS's rules, and the live harness executes its durability on real storage.
/// A user registers one in `Suite.lifecycleStrategies` with a `LifecycleVariant`.
///
/// The rules the harness checks on every item (`LifecycleContract`, the contract table in
/// docs/your-own-variant.md): every share (cachePurgedInBackground) is finite and in [0, 1],
/// refresh.retries ≥ 0, and refresh.ownTimeoutSeconds, when set, is finite and > 0. A declaration
/// that breaks one fails its item; nothing is clamped in silence.
public struct LifecyclePolicy: Sendable, Hashable {
    /// When an acknowledged change reaches storage.
    public enum Persistence: String, Sendable, Hashable, CaseIterable {
        /// Each change is committed as it happens and acknowledged once committed (Signal's
        /// database writes).
        case eachChange = "each-change"
        /// Changes live in memory, acknowledged at once, and are saved at lifecycle transitions.
        case atTransitions = "at-transitions"
    }

    /// How a save reaches storage, and so what a kill in the middle of one leaves behind.
    public enum Durability: String, Sendable, Hashable, CaseIterable {
        /// Overwrite the file in place: a kill mid-write leaves a torn file.
        case inPlace = "in-place"
        /// Write a temporary file and rename it over the old one.
        case rename
        /// As `rename`, with fsync of the file before and of the directory after the rename.
        case renameFsync = "rename-fsync"
        /// A transaction in SQLite in WAL mode.
        case sqliteWAL = "sqlite-wal"

        /// Whether a process kill in the middle of a save leaves the previous state intact.
        public var isAtomicUnderKill: Bool { self != .inPlace }
    }

    /// What the app does when it enters the background.
    public enum BackgroundSave: String, Sendable, Hashable, CaseIterable {
        /// Nothing to save (every change is already durable).
        case none
        /// Save synchronously on the main thread inside `didEnterBackground`.
        case syncOnMain = "sync-on-main"
        /// Begin a background task, save off the main thread, end the task when done.
        case backgroundTask = "background-task"
        /// As `backgroundTask`, and on expiration save again synchronously on main (`forceSave`).
        case backgroundTaskForceSave = "background-task-force-save"
    }

    /// What a BGAppRefreshTask's sync does.
    public struct Refresh: Sendable, Hashable {
        /// Sets an expiration handler that cancels the sync and completes the task.
        public var expirationHandler: Bool
        /// Stops itself after this many seconds and completes the task (Signal: 27 s).
        public var ownTimeoutSeconds: Double?
        /// Retries of a failed attempt within the same window.
        public var retries: Int
        /// Keeps what an unfinished sync already did (committed progress), so the next window
        /// continues rather than starting over.
        public var resumable: Bool

        /// A sync policy; no own timeout, no retries, not resumable unless given.
        public init(expirationHandler: Bool, ownTimeoutSeconds: Double? = nil, retries: Int = 0, resumable: Bool = false) {
            self.expirationHandler = expirationHandler
            self.ownTimeoutSeconds = ownTimeoutSeconds
            self.retries = retries
            self.resumable = resumable
        }
    }

    /// When a change becomes durable.
    public var persistence: Persistence
    /// How a save reaches storage.
    public var durability: Durability
    /// What `didEnterBackground` does.
    public var backgroundSave: BackgroundSave
    /// Saves in `applicationWillTerminate` (which a suspended app never receives).
    public var savesAtWillTerminate: Bool
    /// Collapses repeated scene-phase events into one handling (the article's `Task(id:)`).
    public var debouncesScenePhase: Bool
    /// Saves only when something changed since the last save.
    public var savesOnlyWhenDirty: Bool
    /// Runs non-critical initialisation after the first screen instead of before it.
    public var defersNonCriticalInit: Bool
    /// Runs a pending database migration off the main thread behind a loading screen.
    public var migratesOffMain: Bool
    /// The share of the caches cleared on entering the background (0: none, 1: all), rebuilt on
    /// resume.
    public var cachePurgedInBackground: Double
    /// What the BGAppRefreshTask sync does.
    public var refresh: Refresh
    /// Signal's crash-loop detection: consecutive unfinished launches at which the app shows a
    /// launch-failure screen instead of launching (nil: none).
    public var crashLoopThreshold: Int?

    /// A declaration; everything after `backgroundSave` defaults to off (no purge, no retries, no crash-loop counter).
    public init(
        persistence: Persistence,
        durability: Durability,
        backgroundSave: BackgroundSave,
        savesAtWillTerminate: Bool = false,
        debouncesScenePhase: Bool = false,
        savesOnlyWhenDirty: Bool = false,
        defersNonCriticalInit: Bool = false,
        migratesOffMain: Bool = false,
        cachePurgedInBackground: Double = 0,
        refresh: Refresh = Refresh(expirationHandler: false),
        crashLoopThreshold: Int? = nil
    ) {
        self.persistence = persistence
        self.durability = durability
        self.backgroundSave = backgroundSave
        self.savesAtWillTerminate = savesAtWillTerminate
        self.debouncesScenePhase = debouncesScenePhase
        self.savesOnlyWhenDirty = savesOnlyWhenDirty
        self.defersNonCriticalInit = defersNonCriticalInit
        self.migratesOffMain = migratesOffMain
        // Not clamped: a share outside [0, 1] fails the item (`LifecycleContract`), it is not
        // quietly run as another strategy.
        self.cachePurgedInBackground = cachePurgedInBackground
        self.refresh = refresh
        self.crashLoopThreshold = crashLoopThreshold
    }
}
