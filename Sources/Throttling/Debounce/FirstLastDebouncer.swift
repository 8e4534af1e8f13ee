import Simulation

/// Signal's `DebouncedEvent` in `firstLast` mode, as a state machine that never reads a clock.
///
/// A request enqueues a fire: with a plain `async` (so it runs after work already queued on that
/// queue, never synchronously) when at least `interval` has passed since the last fire, else at
/// `lastFire + interval`. Requests while a fire is enqueued are ignored. `lastFire` is taken when
/// the fire runs (Signal's `MonotonicDate()` inside `fireDelayedNotification`).
/// SignalServiceKit/Util/DebouncedEvent.swift, `DebouncedEventFirstLast`.
public struct FirstLastDebouncer: Hashable, Sendable {
    public let interval: SimDuration
    public private(set) var hasEnqueuedFire = false
    public private(set) var lastFire: SimInstant?

    public init(interval: SimDuration) {
        precondition(interval >= .zero, "interval must not be negative")
        self.interval = interval
    }

    /// `requestNotify()` at `now`.
    public mutating func request(at now: SimInstant) -> LastOnlyDebouncer.Request {
        guard !hasEnqueuedFire else { return .ignored }
        hasEnqueuedFire = true
        if let lastFire, now < lastFire + interval { return .enqueue(at: lastFire + interval) }
        return .enqueueNow
    }

    /// The enqueued fire runs at `now`.
    public mutating func fire(at now: SimInstant) {
        hasEnqueuedFire = false
        lastFire = now
    }
}
