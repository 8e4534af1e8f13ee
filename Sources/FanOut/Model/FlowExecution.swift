import Simulation
import Timelines

/// Runs one flow's calls under a strategy's shape from the moment its work leaves the tap handler,
/// computing every call, wait and callback in virtual time.
///
/// The flow's calls do not interact with other flows' (the services have no queue of their own in
/// this model), so a flow is resolved in one pass when it starts; only the main thread is shared,
/// and `FanOutSimulation` serializes that.
struct FlowExecution {
    /// A call copy as it ran: when it was sent, when the client stopped waiting for it, and why.
    struct CallRecord: Sendable, Hashable {
        enum End: String, Sendable, Hashable {
            case succeeded, failed
            case timedOut = "timed-out"
            case cancelled
            case lostHedge = "lost-hedge"
        }
        var kind: ServiceKind
        /// The call's position in its flow (`CallSpec.slot`): which call it is.
        var slot: Int
        var copy: Int
        var start: SimInstant
        var end: SimInstant
        var how: End
    }

    /// A worker thread occupied from `start` to `end`: running a callback, or blocked.
    struct ThreadSpan: Sendable, Hashable {
        var start: SimInstant
        var end: SimInstant
        var blocked: Bool
        /// What the slice is called (`favourites handler`): a name made once per service kind
        /// (`Labels`), not a string per span.
        var label: TraceName

        /// The labels of a worker's spans, one per service kind, by `ServiceKind.ordinal` (the
        /// kinds sorted by it, so that the tables follow the switch, not the declaration order).
        enum Labels {
            private static let kinds = ServiceKind.allCases.sorted { $0.ordinal < $1.ordinal }
            static let blockedOperation = kinds.map { TraceName("operation \($0.rawValue) (blocked)") }
            static let handler = kinds.map { TraceName("\($0.rawValue) handler") }
            static let groupWait: TraceName = "group.wait (blocked)"
        }
    }

    var shape: FanOutShape
    var costs: FlowCosts
    var batched: Bool

    struct Result: Sendable {
        /// When the result is ready for main (for `waitOnMain`: when main stops waiting).
        var finish: SimInstant
        var failed: Bool
        var calls: [CallRecord] = []
        var threads: [ThreadSpan] = []
        var mainBlocked: [(start: SimInstant, end: SimInstant)] = []
        /// Service time spent after the flow's first failure on calls whose answers were thrown
        /// away (ns).
        var wasted: Int64 = 0
    }

    func run(_ plan: FlowPlan, from start: SimInstant) -> Result {
        var result = Result(finish: start, failed: false)
        var stages = plan.stages(batched: batched)
        if shape.issue == .sequential { stages = stages.flatMap { $0.map { [$0] } } }
        var s = start
        for calls in stages {
            let join = runStage(calls, plan: plan, at: s, into: &result)
            s = join + costs.callback
            if result.failed { break }
        }
        result.finish = s
        return result
    }

    /// One call's copies before the stage's cancellation rule is applied.
    private struct Resolved {
        var call: CallSpec
        var copies: [(start: SimInstant, end: SimInstant, result: CallOutcome.Result)]
        var end: SimInstant
        var ok: Bool
    }

    private func resolve(_ call: CallSpec, plan: FlowPlan, at s: SimInstant) -> Resolved {
        let first = plan.outcome(call, copy: 0)
        let e1 = s + first.duration
        let delay = plan.services.hedgeDelay(call.kind, movies: plan.movies)
        guard shape.hedged, first.duration > delay else {
            return Resolved(call: call, copies: [(s, e1, first.result)], end: e1, ok: first.ok)
        }
        let hs = s + delay
        let second = plan.outcome(call, copy: 1)
        let e2 = hs + second.duration
        let end: SimInstant
        let ok: Bool
        switch (first.ok, second.ok) {
        case (true, true): (end, ok) = (min(e1, e2), true)
        case (true, false): (end, ok) = (e1, true)
        case (false, true): (end, ok) = (e2, true)
        case (false, false): (end, ok) = (max(e1, e2), false)
        }
        return Resolved(call: call, copies: [(s, e1, first.result), (hs, e2, second.result)], end: end, ok: ok)
    }

    /// Runs one stage from `s`; returns when the code waiting for it resumes (before its callback cost).
    private func runStage(_ calls: [CallSpec], plan: FlowPlan, at s: SimInstant, into result: inout Result) -> SimInstant {
        let resolved = calls.map { resolve($0, plan: plan, at: s) }
        var join = resolved.map(\.end).max() ?? s
        var cancelAt: SimInstant?
        let failures = resolved.filter { !$0.ok }.map(\.end)
        let firstFailure = failures.min()
        if let firstFailure {
            var rule = shape.onFailure
            // `async let` needs a static number of children: a per-movie stage is a task group.
            if rule == .cancelInOrder, calls.contains(where: { $0.kind == .movie }) { rule = .cancelOnFirst }
            switch rule {
            case .runToCompletion: break
            case .failFast: join = firstFailure
            case .cancelOnFirst:
                join = firstFailure
                cancelAt = firstFailure
            case .cancelInOrder:
                var seen = s
                for r in resolved {
                    seen = max(seen, r.end)
                    if !r.ok { break }
                }
                join = seen
                cancelAt = seen
            }
            result.failed = true
        }
        for r in resolved {
            for (copy, c) in r.copies.enumerated() {
                if let cancelAt, c.start >= cancelAt { continue }  // a hedge never sent
                var end = min(c.end, r.end)
                var how: CallRecord.End
                if c.end > r.end {
                    how = .lostHedge
                } else {
                    switch c.result {
                    case .succeeded: how = .succeeded
                    case .failed: how = .failed
                    case .timedOut: how = .timedOut
                    }
                }
                if let cancelAt, end > cancelAt {
                    end = cancelAt
                    how = .cancelled
                }
                if let firstFailure { result.wasted += max(0, (end - max(c.start, firstFailure)).nanoseconds) }
                result.calls.append(CallRecord(kind: r.call.kind, slot: r.call.slot, copy: copy, start: c.start, end: end, how: how))
                if shape.join == .blockingOperations {
                    result.threads.append(
                        ThreadSpan(start: c.start, end: end, blocked: true, label: ThreadSpan.Labels.blockedOperation[r.call.kind.ordinal])
                    )
                }
            }
            // The handler or continuation that receives this call's answer (a cancelled call's too).
            let answered = min(r.end, cancelAt ?? r.end)
            if shape.join != .blockingOperations {
                result.threads.append(
                    ThreadSpan(
                        start: answered,
                        end: answered + costs.callback,
                        blocked: false,
                        label: ThreadSpan.Labels.handler[r.call.kind.ordinal]
                    )
                )
            }
        }
        switch shape.join {
        case .waitOnWorker: result.threads.append(ThreadSpan(start: s, end: join, blocked: true, label: ThreadSpan.Labels.groupWait))
        case .waitOnMain: result.mainBlocked.append((s, join))
        case .callback, .blockingOperations, .suspend: break
        }
        return join
    }
}
