import Foundation
import Simulation
import Synchronization

/// The main executor on real threads: one thread runs turns FIFO (frames first), timers fire
/// from its own timer list, a vsync thread draws or misses frames, and every turn's work burns
/// real CPU through the injected `MonotonicClock`.
///
/// The queue, the timers and the counters other threads touch are protected by `lock`; the
/// session, recorder and policy are touched only by the executor thread (turns and idle calls),
/// as Signal's main-actor code is.
package final class LiveMainExecutor: MainExecutor, @unchecked Sendable {
    private struct Timer {
        var due: SimInstant
        var sequence: Int
        var job: @Sendable () -> Void
    }

    private let clock: any MonotonicClock
    private let interval: SimDuration
    private let lock = NSCondition()
    // Protected by `lock`:
    private var queue: [@Sendable () -> Void] = []
    private var timers: [Timer] = []
    private var sequence = 0
    private var framePending: SimInstant?
    private var missed = 0
    private var outstandingArrivals = 0
    private var lastInput: SimInstant?
    private var stopped = false
    /// Set while a turn runs (read by the vsync thread).
    private let busy = Atomic<Bool>(false)
    /// The vsync thread's view of `session.framesActive`, refreshed after every turn.
    private let framesOn = Atomic<Bool>(false)

    package init(clock: any MonotonicClock, frameInterval: SimDuration) {
        self.clock = clock
        interval = frameInterval
    }

    package var now: SimInstant { clock.now() }

    /// The thread running `runLoop`, once it runs: what `isCurrentThread` compares with.
    private let executorThread = Mutex<pthread_t?>(nil)

    /// Whether the caller is the executor's thread (the main thread of the live launch).
    package var isCurrentThread: Bool {
        executorThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }
    package func work(_ duration: SimDuration) { clock.burn(until: clock.now() + duration) }

    package func async(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        queue.append(job)
        lock.signal()
        lock.unlock()
    }

    package func asyncAfter(_ delay: SimDuration, _ job: @escaping @Sendable () -> Void) {
        lock.lock()
        sequence += 1
        timers.append(Timer(due: clock.now() + delay, sequence: sequence, job: job))
        lock.signal()
        lock.unlock()
    }

    package var nextVsync: SimInstant? {
        guard framesOn.load(ordering: .relaxed) else { return nil }
        let n = clock.now().nanoseconds / interval.nanoseconds + 1
        return SimInstant(nanoseconds: n * interval.nanoseconds)
    }

    package var lastInputArrival: SimInstant? {
        lock.lock()
        defer { lock.unlock() }
        return lastInput
    }

    /// An arrival another thread will deliver later (the executor does not stop before it).
    package func expectArrivals(_ count: Int) {
        lock.lock()
        outstandingArrivals += count
        lock.unlock()
    }

    /// Delivers one expected arrival: a turn, marked as input when `input` is set.
    package func deliver(_ job: @escaping @Sendable () -> Void, input: SimInstant? = nil) {
        lock.lock()
        queue.append(job)
        outstandingArrivals -= 1
        if let input { lastInput = input }
        lock.signal()
        lock.unlock()
    }

    /// One expected arrival that ran off the main executor (an off-main registration).
    package func arrivalDone() {
        lock.lock()
        outstandingArrivals -= 1
        lock.signal()
        lock.unlock()
    }

    /// The vsync thread: at each vsync, a missed frame if a turn is running, else a frame turn.
    package func runVsyncs() {
        var k: Int64 = 1
        while true {
            clock.sleep(until: SimInstant(nanoseconds: interval.nanoseconds * k))
            let at = SimInstant(nanoseconds: interval.nanoseconds * k)
            k += 1
            lock.lock()
            if stopped {
                lock.unlock()
                return
            }
            if framesOn.load(ordering: .relaxed) {
                if busy.load(ordering: .acquiring) { missed += 1 } else { framePending = at }
                lock.signal()
            }
            lock.unlock()
        }
    }

    /// The executor thread's loop; returns when nothing is queued, due, expected or deferred, or
    /// at `deadline` (then `false`).
    package func runLoop(session: LaunchSession, policy: any ReadinessPolicy, deadline: SimInstant) -> Bool {
        executorThread.withLock { $0 = pthread_self() }
        var turns = 0
        while true {
            lock.lock()
            let t = clock.now()
            var due: [Timer] = []
            timers.removeAll { timer in
                if timer.due <= t {
                    due.append(timer)
                    return true
                }
                return false
            }
            for timer in due.sorted(by: { ($0.due, $0.sequence) < ($1.due, $1.sequence) }) { queue.append(timer.job) }
            let frame = framePending
            framePending = nil
            let job: (@Sendable () -> Void)? = frame == nil && !queue.isEmpty ? queue.removeFirst() : nil
            let idle = frame == nil && job == nil
            let pendingTimers = !timers.isEmpty
            let expecting = outstandingArrivals > 0
            lock.unlock()

            if let frame {
                busy.store(true, ordering: .releasing)
                work(session.plan.profile.frameCost)
                busy.store(false, ordering: .releasing)
                session.frameRendered(at: frame, policy: policy)
                continue
            }
            if let job {
                let start = clock.now()
                busy.store(true, ordering: .releasing)
                job()
                busy.store(false, ordering: .releasing)
                turns += 1
                if turns > 1 { session.recorder.maxTurn = max(session.recorder.maxTurn, clock.now() - start) }
                framesOn.store(session.framesActive, ordering: .relaxed)
                continue
            }
            if idle {
                policy.onIdle()
                lock.lock()
                let enqueued = !queue.isEmpty
                lock.unlock()
                if enqueued { continue }
                if !pendingTimers, !expecting, !policy.hasDeferredWork { break }
                if clock.now() >= deadline { break }
                lock.lock()
                let wake = timers.map(\.due).min().map { min($0, clock.now() + interval) } ?? clock.now() + interval
                if queue.isEmpty, framePending == nil {
                    let seconds = max(0, (wake - clock.now()).seconds)
                    _ = lock.wait(until: Date(timeIntervalSinceNow: seconds))
                }
                lock.unlock()
            }
        }
        lock.lock()
        stopped = true
        session.recorder.missedFrames = missed
        let drained = queue.isEmpty && timers.isEmpty && outstandingArrivals == 0
        lock.unlock()
        return drained && !policy.hasDeferredWork
    }
}
