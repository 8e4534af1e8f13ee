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

    /// The longest delay between a display-link vsync and its callback running on the main thread.
    static let tickLatencyMax: Int64 = 1_000_000

    /// How long after vsync `k` the display link's callback is delivered, `[0, 1 ms)`: a fixed,
    /// seedless hash of `k`, so the same in every run, simulated or live.
    ///
    /// Real callbacks jitter, and Signal's publish gate compares two timestamps taken in such
    /// callbacks against a 50 ms interval that is exactly the link's period: whether a tick 50 ms
    /// after a publish passes the gate is decided by the jitter. With callbacks exactly on the
    /// vsync every such tie passed, and the model published on every tick where live mode (and a
    /// phone) publishes on about half of them.
    static func tickLatency(vsync k: Int64) -> SimDuration {
        SimDuration(nanoseconds: Int64(hash(k, salt: 0) % UInt64(tickLatencyMax)))
    }

    /// How much longer than its device's `frameCost` the frame queued at vsync `k` takes, in
    /// `[0, maxJitter)`: real frames vary, and two display-link callbacks that both wait behind a
    /// frame are otherwise exactly one link period apart (the tie in Signal's publish gate
    /// described above).
    static func frameJitter(vsync k: Int64, max maxJitter: SimDuration) -> SimDuration {
        guard maxJitter.nanoseconds > 0 else { return .zero }
        return SimDuration(nanoseconds: Int64(hash(k, salt: 0x5851_F42D_4C95_7F2D) % UInt64(maxJitter.nanoseconds)))
    }

    /// SplitMix64 of `k` (and a salt): a fixed pseudo-random value per vsync, no state, no seed.
    static func hash(_ k: Int64, salt: UInt64) -> UInt64 {
        var z = (UInt64(bitPattern: k) ^ salt) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The time of vsync number `k`: exact integer arithmetic, so 60 Hz does not drift.
    @inline(__always) func vsyncTime(_ k: Int64) -> SimInstant {
        SimInstant(nanoseconds: k * 1_000_000_000 / hz)
    }

    var frameInterval: SimDuration { vsyncTime(1) - vsyncTime(0) }
    var nextVsync: SimInstant { vsyncTime(nextVsyncIndex) }
    var frameQueued: Bool { frameOutstanding && !frameRunning }

    /// Handles the next vsync: returns whether the display link ticks (its callback is delivered
    /// `tickLatency` later) and whether a frame is queued, and counts a missed vsync when the
    /// previous frame is still unfinished.
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
