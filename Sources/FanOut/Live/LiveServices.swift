import Dispatch
import Foundation
import Simulation

struct ServiceFailure: Error {}

/// The login flow's services for one live flow: the same draws as the simulation (`FlowPlan`),
/// answered after a real wait — a Dispatch timer for the completion-handler API, `Task.sleep` for
/// the async API (cancellable, as `URLSession`'s async calls are), a blocking sleep for a
/// synchronous `Operation`.
struct LiveServices: Sendable {
    let plan: FlowPlan
    let recorder: LiveRecorder

    private func how(_ o: CallOutcome) -> FlowExecution.CallRecord.End {
        switch o.result {
        case .succeeded: .succeeded
        case .failed: .failed
        case .timedOut: .timedOut
        }
    }

    /// Completion-handler API: `done(ok)` on a global queue after the call's latency.
    func call(_ c: CallSpec, _ done: @escaping @Sendable (Bool) -> Void) {
        let o = plan.outcome(c, copy: 0)
        let start = recorder.now()
        recorder.send()
        let (recorder, flow, result) = (recorder, plan.index, how(o))
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(o.duration.nanoseconds))) {
            recorder.call(flow, c, copy: 0, start: start, how: result)
            done(o.ok)
        }
    }

    /// Completion-handler API, hedged when `hedged` (`HedgedCallback`).
    func call(_ c: CallSpec, hedged: Bool, _ done: @escaping @Sendable (Bool) -> Void) {
        if hedged { HedgedCallback(self, c, done: done).start() } else { call(c, done) }
    }

    /// Synchronous API: blocks the calling thread for the call's latency.
    func callBlocking(_ c: CallSpec) -> Bool {
        let o = plan.outcome(c, copy: 0)
        let start = recorder.now()
        recorder.send()
        var request = timespec(tv_sec: Int(o.duration.nanoseconds / 1_000_000_000), tv_nsec: Int(o.duration.nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 { request = remaining }
        recorder.call(plan.index, c, copy: 0, start: start, how: how(o))
        recorder.blocked("operation \(c.kind.rawValue) (blocked)", from: start, onMain: false)
        return o.ok
    }

    /// Async API: throws `ServiceFailure` on a failed or timed-out call, `CancellationError` when cancelled.
    func call(_ c: CallSpec, copy: Int = 0) async throws {
        let o = plan.outcome(c, copy: copy)
        let start = recorder.now()
        recorder.send()
        do {
            try await Task.sleep(nanoseconds: UInt64(o.duration.nanoseconds))
        } catch {
            recorder.call(plan.index, c, copy: copy, start: start, how: .cancelled)
            throw error
        }
        recorder.call(plan.index, c, copy: copy, start: start, how: how(o))
        if !o.ok { throw ServiceFailure() }
    }

    /// Async API, hedged when `hedged`.
    func call(_ c: CallSpec, hedged: Bool) async throws {
        if hedged { try await hedgedCall(c) } else { try await call(c) }
    }

    /// Hedged async call: a copy at the service's p95 unless the first answered by then; the first
    /// success wins and the other is cancelled.
    func hedgedCall(_ c: CallSpec) async throws {
        let delay = plan.services.hedgeDelay(c.kind, movies: plan.movies)
        let started = recorder.now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await call(c, copy: 0) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(delay.nanoseconds))
                try await call(c, copy: 1)
            }
            var failures = 0
            while let r = await group.nextResult() {
                switch r {
                case .success:
                    group.cancelAll()
                    return
                case .failure(let e):
                    failures += 1
                    // The first copy failed before the hedge was due: no hedge, the call fails.
                    if failures == 2 || recorder.now() - started < delay {
                        group.cancelAll()
                        throw e
                    }
                }
            }
        }
    }
}
