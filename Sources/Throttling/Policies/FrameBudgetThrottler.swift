import Simulation

/// PatternBench's own policy: fit updates into the main thread's idle time between frames.
///
/// Signal's throttle infers load from a display-link rate and then waits a whole interval; this
/// one asks the question that matters directly — "does an update of n rows fit before the next
/// frame must be done?" — using online estimates of update cost (by rows) and frame cost:
/// - After each frame and after each commit, the budget is how long an update can run before the
///   next frame would present later than it will anyway: the vsync that frame is expected to make
///   (from the estimated frame cost), minus the frame cost, a safety margin and now. It publishes
///   the largest prefix of pending commits predicted to fit, so updates land without costing a
///   vsync. When the device is overloaded and frames miss anyway, the slack this leaves is used.
/// - Resets are per transaction (as in Signal): a batch is a reset only if one of its commits alone
///   touched `resetThreshold` rows, so coalescing small commits never resets and batches are not
///   capped at the threshold. When a reset commit is pending, everything pending is published
///   with it: the reload (built off the main thread) shows all of it at one fixed cost.
/// - When nothing fits and the oldest pending change has waited `maxAge`, it publishes everything
///   pending at once: a hard bound on staleness, paying one update's fixed cost
///   for the whole backlog rather than one per commit.
public struct FrameBudgetThrottler: UpdateThrottler {
    public let maxAge: SimDuration
    public let maxBatchRows: Int
    public private(set) var updateCost = UpdateCostEstimator()
    public private(set) var frameCost = FrameCostEstimator()

    public init(maxAge: SimDuration, maxBatchRows: Int = .max) {
        precondition(maxAge > .zero, "maxAge must be positive")
        self.maxAge = maxAge
        self.maxBatchRows = maxBatchRows
    }

    public mutating func commitArrived(_ context: ThrottleContext) -> ThrottleDecision {
        decide(context)
    }

    public mutating func frameCompleted(_ context: ThrottleContext, frameCost cost: SimDuration) -> ThrottleDecision {
        frameCost.observe(cost)
        return decide(context)
    }

    public mutating func updateApplied(rows: Int, reset: Bool, cost: SimDuration) {
        if !reset { updateCost.observe(rows: rows, cost: cost) }
    }

    func decide(_ context: ThrottleContext) -> ThrottleDecision {
        guard context.pendingCommits > 0 else { return .none }
        let interval = context.vsyncInterval
        let margin = SimDuration(nanoseconds: interval.nanoseconds / 10)
        let frame = frameCost.estimate(fallback: interval / 2)
        // Without an update the next frame starts now (if queued) or at the next vsync, and
        // presents at the first vsync after it finishes: that present is what must not slip.
        let start = context.frameQueued ? context.now : max(context.nextVsync, context.now)
        let present = Self.firstVsync(atOrAfter: start + frame, next: context.nextVsync, interval: interval)
        let budget = present - frame - margin - context.now
        if context.pendingResets > 0 { return ThrottleDecision(publish: .all) }
        let cap = min(maxBatchRows, context.pendingRows)
        let fitting = updateCost.rowsFitting(budget, limit: cap)
        if fitting >= context.oldestPendingRows {
            return ThrottleDecision(publish: .upTo(rows: fitting))
        }
        guard let oldest = context.oldestPending, context.now - oldest >= maxAge else { return .none }
        // Overdue, and no idle slot can take it: a missed vsync is now unavoidable, and the only
        // cost left to control is how many fixed per-update costs are paid. So take everything
        // in this one update.
        return ThrottleDecision(publish: .upTo(rows: cap))
    }
}

extension FrameBudgetThrottler {
    static func firstVsync(atOrAfter t: SimInstant, next: SimInstant, interval: SimDuration) -> SimInstant {
        guard t > next else { return next }
        let steps = ((t - next).nanoseconds + interval.nanoseconds - 1) / interval.nanoseconds
        return next + interval * steps
    }
}

extension SimDuration {
    static func / (lhs: SimDuration, rhs: Int64) -> SimDuration { SimDuration(nanoseconds: lhs.nanoseconds / rhs) }
}
