/// A clock a test moves by hand: `now()` changes only through `advance(by:)` or a `sleep`.
///
/// A sleep does not block: it moves the clock to the deadline, as if the sleeping thread had been
/// the only thing running. That is exactly what a unit test of live-mode logic wants (the logic
/// runs, time passes, nothing waits), and `sleeps` records every deadline asked for, so a test can
/// check what the code under test waited for.
public final class TestClock: MonotonicClock {
    private struct State {
        var now = SimInstant.zero
        var sleeps: [SimInstant] = []
    }

    private let state = LockedState(State())

    public init(start: SimInstant = .zero) {
        state.withLock { $0.now = start }
    }

    public func now() -> SimInstant { state.withLock { $0.now } }

    public func sleep(until instant: SimInstant) {
        state.withLock {
            $0.sleeps.append(instant)
            if instant > $0.now { $0.now = instant }
        }
    }

    /// Moves the clock forward; a negative duration is ignored (a monotonic clock never goes back).
    public func advance(by duration: SimDuration) {
        state.withLock {
            if duration.nanoseconds > 0 { $0.now = $0.now + duration }
        }
    }

    /// Every deadline `sleep(until:)` was called with, in order.
    public var sleeps: [SimInstant] { state.withLock { $0.sleeps } }
}
