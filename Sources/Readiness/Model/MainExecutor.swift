import Simulation

/// What a readiness design may do with the one serial main executor: occupy it, enqueue turns
/// (`main.async`, `main.asyncAfter`) and, for a frame-aware design, look at the frame clock.
///
/// Two drivers implement it — `SimMainExecutor` (virtual time, deterministic) and
/// `LiveMainExecutor` (a real thread, real timers, real CPU) — so each variant is written once.
/// Public because a user's `ReadinessPolicy` schedules its turns on it.
public protocol MainExecutor: AnyObject, Sendable {
    /// The current time on the main executor (inside a job: the job's progress so far).
    var now: SimInstant { get }
    /// Occupies the main executor for `duration` (virtual time advances; live: CPU burns).
    func work(_ duration: SimDuration)
    /// `DispatchQueue.main.async`: a new turn after everything already queued.
    func async(_ job: @escaping @Sendable () -> Void)
    /// `DispatchQueue.main.asyncAfter`: a new turn enqueued `delay` from now.
    func asyncAfter(_ delay: SimDuration, _ job: @escaping @Sendable () -> Void)
    /// The next vsync strictly after `now`, while frames are being drawn (nil: no screen).
    var nextVsync: SimInstant? { get }
    /// When the most recent input event arrived (nil: none yet).
    var lastInputArrival: SimInstant? { get }
}
