import Simulation

/// The display and the policy's hooks into the run loop: vsync grid, frame bookkeeping, the
/// display link and the policy's timer. Shared by the simulator and the live main loop so that
/// both count frames by the same rules.
struct DisplayState {
    let hz: Int64
    let linkDivisor: Int64
    var nextVsyncIndex: Int64 = 0
    var frameOutstanding = false
    var frameRunning = false
    var frameQueuedAt: Int64 = 0
    var lastPresent: SimInstant?

    var linkRunning = false
    var tickQueued = false
    var timerQueued = false
    /// When the policy's timer is armed to fire; nil when disarmed.
    var timerDeadline: SimInstant?

    init(vsyncHz: Int) {
        hz = Int64(vsyncHz)
        // Signal's link runs at 20 fps: every third vsync at 60 Hz, every sixth at 120 Hz.
        linkDivisor = max(1, Int64(vsyncHz) / 20)
    }

    /// The time of vsync number `k`: exact integer arithmetic, so 60 Hz does not drift.
    @inline(__always) func vsyncTime(_ k: Int64) -> SimInstant {
        SimInstant(nanoseconds: k * 1_000_000_000 / hz)
    }

    var frameInterval: SimDuration { vsyncTime(1) - vsyncTime(0) }
    var nextVsync: SimInstant { vsyncTime(nextVsyncIndex) }
    var frameQueued: Bool { frameOutstanding && !frameRunning }

    /// Handles the next vsync: returns what to queue on the main thread (tick first, then frame),
    /// and counts a missed vsync when the previous frame is still unfinished.
    mutating func vsync(metrics: inout ThrottleMetrics) -> (tick: Bool, frame: Bool) {
        let k = nextVsyncIndex
        nextVsyncIndex += 1
        metrics.vsyncs += 1
        var tick = false
        if linkRunning, k % linkDivisor == 0, !tickQueued {
            tickQueued = true
            tick = true
        }
        if frameOutstanding {
            metrics.missedVsyncs += 1
            return (tick, false)
        }
        frameOutstanding = true
        frameQueuedAt = k
        return (tick, true)
    }

    /// A frame finished: it presents at the first vsync at or after now.
    mutating func frameFinished() -> (present: SimInstant, queuedAt: SimInstant) {
        frameRunning = false
        frameOutstanding = false
        return (nextVsync, vsyncTime(frameQueuedAt))
    }

    /// Applies a decision's timer and display-link parts; returns whether the timer was (re)armed.
    mutating func apply(_ decision: ThrottleDecision, now: SimInstant) -> Bool {
        switch decision.displayLink {
        case .unchanged: break
        case .run: linkRunning = true
        case .pause: linkRunning = false
        }
        switch decision.timer {
        case .unchanged: return false
        case .cancel:
            timerDeadline = nil
            return false
        case .fire(let at):
            timerDeadline = max(at, now)
            return true
        }
    }
}
