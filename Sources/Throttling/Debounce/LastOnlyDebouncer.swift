import Simulation

/// Signal's `DebouncedEvent` in `lastOnly` mode, as a state machine that never reads a clock.
///
/// The first request enqueues a fire `interval` after itself; requests while that fire is
/// enqueued are ignored (the timer is never pushed back), so a steady stream of requests still
/// fires every `interval` and never starves. An interval of at most 1 ms (Signal's
/// `thetaInterval`) is dispatched with a plain `async` instead of `asyncAfter`: the fire runs
/// after whatever is already queued. Signal times it with `DispatchTime` (monotonic).
/// SignalServiceKit/Util/DebouncedEvent.swift, `DebouncedEventLastOnly`.
public struct LastOnlyDebouncer: Hashable, Sendable {
    /// Signal's `DebouncedEvents.thetaInterval`.
    public static let theta = SimDuration.milliseconds(1)

    /// What a request asks the host to do.
    public enum Request: Hashable, Sendable {
        /// A fire is already enqueued: nothing to do (de-bounced).
        case ignored
        /// Enqueue the fire with a plain `async` (behind work already queued).
        case enqueueNow
        /// Enqueue the fire at this time (`asyncAfter`).
        case enqueue(at: SimInstant)
    }

    public let interval: SimDuration
    public private(set) var hasEnqueuedFire = false

    public init(interval: SimDuration) {
        precondition(interval >= .zero, "interval must not be negative")
        self.interval = interval
    }

    /// `requestNotify()` at `now`.
    public mutating func request(at now: SimInstant) -> Request {
        guard !hasEnqueuedFire else { return .ignored }
        hasEnqueuedFire = true
        return interval > Self.theta ? .enqueue(at: now + interval) : .enqueueNow
    }

    /// The enqueued fire runs (`fireDelayedNotification`): the next request enqueues again.
    public mutating func fire() {
        hasEnqueuedFire = false
    }
}
