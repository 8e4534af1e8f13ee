import Simulation

/// Signal's `DebouncedEvent` in its `firstLast` mode, as a state machine that never reads a clock.
///
/// A request fires at once when at least `interval` has passed since the last fire, else it
/// enqueues one fire at `lastFire + interval`; requests while a fire is enqueued are ignored, and
/// `lastFire` is set when the fire runs (DebouncedEvent.swift 16f0ed8). The main app refreshes its
/// UI through one of these (3 s) after a cross-process write while it is active.
public struct FirstLastDebouncer: Sendable {
    public enum Decision: Sendable, Equatable {
        /// Fire now (Signal: `queue.async`, i.e. after work already queued).
        case fireNow
        /// A fire is now enqueued at this instant.
        case scheduled(SimInstant)
        /// A fire is already enqueued; this request rides on it.
        case ignored
    }

    public let interval: SimDuration
    public private(set) var lastFire: SimInstant?
    public private(set) var enqueued = false

    public init(interval: SimDuration) { self.interval = interval }

    /// A request at `now`. After `.fireNow` or when a scheduled fire is due, call `fired(at:)`.
    public mutating func request(at now: SimInstant) -> Decision {
        if enqueued { return .ignored }
        enqueued = true
        guard let lastFire, now - lastFire < interval else { return .fireNow }
        return .scheduled(lastFire + interval)
    }

    /// The enqueued fire ran at `now`.
    public mutating func fired(at now: SimInstant) {
        enqueued = false
        lastFire = now
    }
}
