import Dispatch
import Foundation
import Measurement
import Simulation

/// Runs the flows of one live item on the real primitive of its variant: flows start open-loop at
/// their planned arrival on the run's clock, the tap and the UI update run on a serial queue that
/// stands in for the main thread, and every call really waits its drawn latency.
struct LiveFlowRunner {
    let variant: FanOutVariant
    let batched: Bool
    let recordTrace: Bool
    let mainQueue = DispatchQueue(label: "patternbench.group.main-stand-in")
    let operations: OperationQueue = {
        let q = OperationQueue()
        q.name = "patternbench.group.operations"
        return q
    }()

    /// Runs `plans` on `clock` (the injected live clock, its origin the run's start): each flow
    /// starts at its planned arrival, an absolute deadline, so late starts never accumulate.
    func run(_ plans: [FlowPlan], clock: any MonotonicClock = SystemMonotonicClock()) -> LiveFlowResult {
        let recorder = LiveRecorder(flows: plans.count, clock: clock)
        let sampler = ThreadCountSampler()
        let all = DispatchGroup()
        for plan in plans {
            clock.sleep(until: plan.arrival)
            all.enter()
            let services = LiveServices(plan: plan, recorder: recorder)
            let finish: @Sendable (Bool) -> Void = { [mainQueue] failed in
                mainQueue.async {
                    recorder.finished(plan.index, arrival: plan.arrival, failed: failed)
                    all.leave()
                }
            }
            mainQueue.async { start(services, finish: finish) }
        }
        let finished = all.wait(timeout: .now() + 600) == .success
        let threads = sampler.stop()
        return LiveFlowResult(
            recorder: recorder,
            flows: plans.count,
            threadsInUsePeak: threads,
            complete: finished,
            recordTrace: recordTrace
        )
    }

    /// On the main stand-in: the tap. Starts the flow the variant's way.
    private func start(_ s: LiveServices, finish: @escaping @Sendable (Bool) -> Void) {
        let stages = s.plan.stages(batched: batched)
        let hedged = variant.shape.hedged
        switch variant.primitive {
        case .chainedHandlers:
            let calls = stages.flatMap { $0 }
            @Sendable func step(_ i: Int) {
                s.call(calls[i], hedged: hedged) { ok in
                    if !ok { finish(true) } else if i + 1 < calls.count { step(i + 1) } else { finish(false) }
                }
            }
            step(0)
        case .groupNotify:
            @Sendable func stage(_ k: Int) {
                let group = DispatchGroup()
                let failed = Flag()
                for c in stages[k] {
                    group.enter()
                    s.call(c, hedged: hedged) { ok in
                        if !ok { failed.set() }
                        group.leave()
                    }
                }
                group.notify(queue: .global()) {
                    if failed.value { finish(true) } else if k + 1 < stages.count { stage(k + 1) } else { finish(false) }
                }
            }
            stage(0)
        case .whenFulfilled:
            @Sendable func stage(_ k: Int) {
                let settled = WhenFulfilled(count: stages[k].count) { ok in
                    if !ok { finish(true) } else if k + 1 < stages.count { stage(k + 1) } else { finish(false) }
                }
                for c in stages[k] { s.call(c, hedged: hedged) { ok in settled.resolve(ok) } }
            }
            stage(0)
        case .groupWaitWorker:
            DispatchQueue.global().async { finish(Self.waitingFlow(s, stages, onMain: false, hedged: hedged)) }
        case .groupWaitMain:
            // Already on the main stand-in: it blocks here, and the UI update follows inline.
            finish(Self.waitingFlow(s, stages, onMain: true, hedged: hedged))
        case .operations:
            let failed = Flag()
            let first = stages[0].map { c in BlockOperation { if !s.callBlocking(c) { failed.set() } } }
            let next = BlockOperation { [operations] in
                if failed.value { return finish(true) }
                let movies = stages[1].map { c in BlockOperation { if !s.callBlocking(c) { failed.set() } } }
                let done = BlockOperation { finish(failed.value) }
                for m in movies { done.addDependency(m) }
                operations.addOperations(movies + [done], waitUntilFinished: false)
            }
            for op in first { next.addDependency(op) }
            operations.addOperations(first + [next], waitUntilFinished: false)
        case .asyncLet:
            Task.detached {
                do {
                    async let p: Void = s.call(stages[0][0], hedged: hedged)
                    async let t: Void = s.call(stages[0][1], hedged: hedged)
                    async let f: Void = s.call(stages[0][2], hedged: hedged)
                    _ = try await (p, t, f)
                    try await Self.group(stages[1], s, hedged: hedged)
                    finish(false)
                } catch {
                    finish(true)
                }
            }
        case .taskGroup:
            Task.detached {
                do {
                    for stage in stages { try await Self.group(stage, s, hedged: hedged) }
                    finish(false)
                } catch {
                    finish(true)
                }
            }
        }
    }

    /// A throwing task group over a stage: the first failure leaves the body, which cancels the rest.
    private static func group(_ calls: [CallSpec], _ s: LiveServices, hedged: Bool) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for c in calls { group.addTask { try await s.call(c, hedged: hedged) } }
            for try await _ in group {}
        }
    }

    /// Each stage's calls with enter/leave, then `wait()` on the current thread; whether it failed.
    private static func waitingFlow(_ s: LiveServices, _ stages: [[CallSpec]], onMain: Bool, hedged: Bool) -> Bool {
        for stage in stages {
            let group = DispatchGroup()
            let failed = Flag()
            for c in stage {
                group.enter()
                s.call(c, hedged: hedged) { ok in
                    if !ok { failed.set() }
                    group.leave()
                }
            }
            let start = s.recorder.now()
            group.wait()
            s.recorder.blocked("group.wait (blocked)", from: start, onMain: onMain)
            if failed.value { return true }
        }
        return false
    }
}

/// A flag set from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    func set() { lock.withLock { isSet = true } }
    var value: Bool { lock.withLock { isSet } }
}

/// Signal's `_when(fulfilled:)` shape: calls `then(true)` after the last success, `then(false)` at
/// the first failure, once; later answers are ignored (nothing is cancelled).
final class WhenFulfilled: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: Int
    private var sealed = false
    private let then: @Sendable (Bool) -> Void

    init(count: Int, then: @escaping @Sendable (Bool) -> Void) {
        pending = count
        self.then = then
    }

    func resolve(_ ok: Bool) {
        let fire: Bool? = lock.withLock {
            guard !sealed else { return nil }
            if !ok {
                sealed = true
                return false
            }
            pending -= 1
            if pending == 0 {
                sealed = true
                return true
            }
            return nil
        }
        if let fire { then(fire) }
    }
}
