import Simulation

extension LastOnlyDebouncer.Request {
    /// The throttle decision that carries out this request for a commit arriving at `now`: both
    /// of Signal's debouncer modes answer a commit the same way, so one mapping serves both.
    @inline(__always) func decision(now: SimInstant) -> ThrottleDecision {
        switch self {
        case .ignored: .none
        case .enqueueNow: ThrottleDecision(timer: .fire(at: now))
        case .enqueue(let at): ThrottleDecision(timer: .fire(at: at))
        }
    }
}
