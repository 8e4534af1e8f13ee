import Dispatch
import Foundation
import Measurement
import Simulation
import Timelines

/// What a live run records, from any thread: call copies, blocked spans, the main stand-in's
/// blocked time, flow latencies. Times are ns since the run's origin on the run's injected clock.
final class LiveRecorder: @unchecked Sendable {
    private let lock = NSLock()
    /// The run's clock; its origin is the run's start. Immutable, so the lock need not cover it.
    let clock: any MonotonicClock
    private(set) var calls: [(flow: Int, record: FlowExecution.CallRecord)] = []
    private(set) var blockedSpans: [FlowExecution.ThreadSpan] = []
    private(set) var mainBlocked: [(start: SimInstant, end: SimInstant)] = []
    private(set) var latencies: [Int64] = []
    private(set) var failed = 0
    /// How often each flow finished (the contract: once each) and how many call copies were sent.
    private(set) var finishes: [Int] = []
    private(set) var sent = 0
    private var firstFailure: [Int: SimInstant] = [:]

    init(flows: Int, clock: any MonotonicClock) {
        self.clock = clock
        finishes = Array(repeating: 0, count: flows)
    }

    func now() -> SimInstant { clock.now() }

    /// A call copy was sent; its completion is `call`.
    func send() { lock.withLock { sent += 1 } }

    func call(_ flow: Int, _ spec: CallSpec, copy: Int, start: SimInstant, how: FlowExecution.CallRecord.End) {
        let end = now()
        lock.withLock {
            calls.append((flow, FlowExecution.CallRecord(kind: spec.kind, slot: spec.slot, copy: copy, start: start, end: end, how: how)))
            if how == .failed || how == .timedOut, firstFailure[flow] == nil { firstFailure[flow] = end }
        }
    }

    func blocked(_ label: String, from start: SimInstant, onMain: Bool) {
        let end = now()
        lock.withLock {
            if onMain {
                mainBlocked.append((start, end))
            } else {
                blockedSpans.append(FlowExecution.ThreadSpan(start: start, end: end, blocked: true, label: TraceName(label)))
            }
        }
    }

    func finished(_ flow: Int, arrival: SimInstant, failed didFail: Bool) {
        let latency = (now() - arrival).nanoseconds
        lock.withLock {
            if finishes.indices.contains(flow) { finishes[flow] += 1 }
            latencies.append(latency)
            if didFail { failed += 1 }
        }
    }

    /// The first broken rule of `FanOutContract`; the count of sends is compared only when every
    /// flow finished (a run cut off at its time limit has calls in flight).
    func contractViolation(complete: Bool) -> ContractViolation? {
        lock.withLock { FanOutContract.violation(calls: calls, finishes: finishes, sent: complete ? sent : nil) }
    }

    /// Service time after each flow's first failure, on copies that ran past it (ns).
    var wasted: Int64 {
        lock.withLock {
            calls.reduce(Int64(0)) { sum, c in
                guard let f = firstFailure[c.flow] else { return sum }
                return sum + max(0, (c.record.end - max(c.record.start, f)).nanoseconds)
            }
        }
    }
}

/// The process's thread count, sampled every millisecond while a live item runs: the peak above the
/// count before it is "threads in use" (Linux: /proc/self/status).
final class ThreadCountSampler: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var peak = 0
    private let thread: Thread?
    let baseline: Int

    init() {
        baseline = Self.current()
        let box = Box()
        let t = Thread {
            while box.sampler?.sample() ?? false { usleep(1000) }
        }
        thread = t
        box.sampler = self
        t.start()
    }

    private final class Box: @unchecked Sendable { weak var sampler: ThreadCountSampler? }

    private func sample() -> Bool {
        let n = Self.current()
        return lock.withLock {
            peak = max(peak, n)
            return running
        }
    }

    /// Stops sampling; the peak above the baseline (the sampler's own thread excluded).
    func stop() -> Int {
        lock.withLock {
            running = false
            return max(0, peak - baseline - 1)
        }
    }

    static func current() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst(8).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
