import Simulation
import Throttling

/// A throttler a team might write: publish once every `n` commits, and whatever is still pending
/// once its oldest change has waited `maxWait`, so a quiet tail is never stranded.
///
/// Like every `UpdateThrottler` it never reads a clock: the time comes in the context, and the
/// decision goes back as data. That is what lets the same type run in virtual time (bit-identical
/// for a seed) and live on the real main loop.
struct EveryNthCommitThrottler: UpdateThrottler {
    let n: Int
    let maxWait: SimDuration
    private var sincePublish = 0

    init(n: Int, maxWait: SimDuration = .milliseconds(100)) {
        self.n = n
        self.maxWait = maxWait
    }

    mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        sincePublish += 1
        guard sincePublish >= n else {
            // Wake up when the oldest pending change would have waited too long, or at once if it
            // already has (main was busy): a timer is never set in the past (ThrottleContract).
            let deadline = (context.oldestPending ?? context.now) + maxWait
            return ThrottleDecision(timer: .fire(at: max(deadline, context.now)))
        }
        sincePublish = 0
        return ThrottleDecision(publish: .all, timer: .cancel)
    }

    mutating func timerFired(_ context: ThrottleContext) -> ThrottleDecision {
        guard context.pendingCommits > 0 else { return .none }
        sincePublish = 0
        return ThrottleDecision(publish: .all)
    }
}
