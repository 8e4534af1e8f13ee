import Dispatch
import Foundation
import Simulation

/// A hedged call on the completion-handler API, as the simulation models one: a second copy at the
/// service's p95 unless the first has answered by then; the first success wins and the other copy's
/// timer is cancelled (recorded as `cancelled`); the call fails only when every copy sent failed.
final class HedgedCallback: @unchecked Sendable {
    private let lock = NSLock()
    private let services: LiveServices
    private let call: CallSpec
    private let done: @Sendable (Bool) -> Void
    private var settled = false
    private var answered = 0
    private var sent = 0
    private var pending: [Int: (item: DispatchWorkItem, start: SimInstant)] = [:]
    private var hedgeTimer: DispatchWorkItem?

    init(_ services: LiveServices, _ call: CallSpec, done: @escaping @Sendable (Bool) -> Void) {
        self.services = services
        self.call = call
        self.done = done
    }

    func start() {
        let delay = services.plan.services.hedgeDelay(call.kind, movies: services.plan.movies)
        let timer = DispatchWorkItem { [self] in send(copy: 1) }
        lock.withLock {
            hedgeTimer = timer
            sendLocked(copy: 0)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds)), execute: timer)
    }

    private func send(copy: Int) {
        lock.withLock {
            guard !settled else { return }
            sendLocked(copy: copy)
        }
    }

    private func sendLocked(copy: Int) {
        let o = services.plan.outcome(call, copy: copy)
        let start = services.recorder.now()
        let item = DispatchWorkItem { [self] in answer(copy: copy, outcome: o, start: start) }
        pending[copy] = (item, start)
        sent += 1
        services.recorder.send()
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(o.duration.nanoseconds)), execute: item)
    }

    private func answer(copy: Int, outcome o: CallOutcome, start: SimInstant) {
        let how: FlowExecution.CallRecord.End =
            switch o.result {
            case .succeeded: .succeeded
            case .failed: .failed
            case .timedOut: .timedOut
            }
        var losers: [(item: DispatchWorkItem, start: SimInstant, copy: Int)] = []
        let result: Bool? = lock.withLock {
            guard pending.removeValue(forKey: copy) != nil, !settled else { return nil }
            services.recorder.call(services.plan.index, call, copy: copy, start: start, how: how)
            answered += 1
            // A first copy that answered before the hedge was due: no hedge is sent.
            if copy == 0, sent == 1 { hedgeTimer?.cancel() }
            guard o.ok || (answered == sent && (sent == 2 || hedgeTimer?.isCancelled == true)) else { return nil }
            settled = true
            hedgeTimer?.cancel()
            hedgeTimer = nil  // the timer's block holds this object: break the cycle
            losers = pending.map { ($0.value.item, $0.value.start, $0.key) }
            pending.removeAll()
            return o.ok
        }
        for l in losers {
            l.item.cancel()
            services.recorder.call(services.plan.index, call, copy: l.copy, start: l.start, how: .cancelled)
        }
        if let result { done(result) }
    }
}
