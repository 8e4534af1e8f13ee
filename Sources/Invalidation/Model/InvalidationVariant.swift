/// How the main app learns that another process wrote to the shared database.
///
/// The first three are Signal's designs and the control; `change-log` is ours. Every variant keeps
/// the same caches and the same UI-refresh path, so that differences in the metrics come from the
/// invalidation mechanism alone.
///
/// **Contract** (`InvalidationContract`, checked on every item; a run that breaks it fails instead
/// of being ranked): the main app's cache drops a row only at capacity, on a delivery that
/// evacuates it, or for a change-log entry of that row; and a run's counts agree (stale reads ≤
/// hits ≤ reads, missed invalidations ≤ foreign commits).
public enum InvalidationVariant: String, CaseIterable, Sendable, Codable {
    /// Signal today (SDSCrossProcess.swift 8057d074): one notification name per role, each process
    /// listens to the other two; the main app empties its caches on every delivery.
    case signal
    /// Signal before (5c173190, SDSCrossProcess.m): one shared name, the writer's pid in the
    /// notification state; a receiver ignores a delivery whose state is its own pid.
    case signalLegacy = "signal-legacy"
    /// The control: nobody listens, caches are never invalidated by other processes' writes.
    case noInvalidation = "no-invalidation"
    /// Ours: every write transaction also appends (seq, key) rows to a change log; a reader checks
    /// SQLite's `PRAGMA data_version` before serving from its cache and, when another connection
    /// committed, reads the log past its cursor and evicts exactly those keys. Notifications still
    /// drive the UI refresh, but no longer empty caches.
    case changeLog = "change-log"

    public var summary: String {
        switch self {
        case .signal: "Signal today: a notification per role, main empties its caches on every delivery"
        case .signalLegacy: "Signal before: one shared name, writer pid in the state, own pid ignored (racy)"
        case .noInvalidation: "control: no cross-process invalidation (must serve stale reads)"
        case .changeLog: "ours: change log + data_version check per read, targeted eviction; notifications only refresh UI"
        }
    }

    /// The main app listens for notifications at all.
    var listens: Bool { self != .noInvalidation }
    /// A delivery the main app acts on empties its model caches.
    var evacuatesOnDelivery: Bool { self == .signal || self == .signalLegacy }
    /// Readers validate their cache against the database before every read.
    var validatesEveryRead: Bool { self == .changeLog }
    /// All roles post to, and listen on, one shared name.
    var sharedChannel: Bool { self == .signalLegacy }
}
