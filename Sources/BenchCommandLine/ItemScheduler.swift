import Foundation
import Measurement
import Simulation

/// Runs a matrix's items on up to `jobs` threads and hands back each result by item index.
///
/// With `jobs` 1 the items run one after another in matrix order. Otherwise the `.parallel` items
/// run first, on a pool of `jobs` worker threads, and then the `.alone` items one by one in matrix
/// order, each with nothing else in flight (a matrix that interleaves them, like bench-atomics'
/// single-thread and contended cells, would otherwise never have two parallel items side by side).
/// Results are delivered to `deliver` on the calling thread, in completion order, with their
/// index: the caller stores them by index, so what it writes does not depend on `jobs`, on the
/// execution order or on timing. After a failure no new item starts.
///
/// Items always run on worker threads, never on the calling thread, which only waits, so that an
/// interrupt is answered within `pollInterval` whatever the items are doing: once `shouldStop`
/// says yes, no new item starts, and the calling thread stops waiting for the items in flight
/// that `canAbandon` (pure computation, or a child process the item's own thread kills) and
/// returns. It still waits for the others (a built-in live item that must reap the processes it
/// started); their results are delivered. `tick` is called on the calling thread each time it
/// wakes (at least every `pollInterval`), so progress can be reported while a long item runs.
package struct ItemScheduler: Sendable {
    package let jobs: Int

    /// How often the calling thread checks `shouldStop` while it waits.
    static let pollInterval: DispatchTimeInterval = .milliseconds(20)

    package init(jobs: Int) { self.jobs = max(1, jobs) }

    package func run<Sample: Sendable>(
        count: Int,
        isAlone: (Int) -> Bool,
        canAbandon: @escaping @Sendable (Int) -> Bool = { _ in false },
        shouldStop: @escaping @Sendable () -> Bool,
        work: @escaping @Sendable (Int) throws -> Sample,
        deliver: (Int, Result<Sample, any Error>) -> Void,
        tick: () -> Void = {}
    ) {
        guard jobs > 1 else {
            _ = runPool(
                Array(0..<count),
                workers: 1,
                canAbandon: canAbandon,
                shouldStop: shouldStop,
                work: work,
                deliver: deliver,
                tick: tick
            )
            return
        }
        let parallel = (0..<count).filter { !isAlone($0) }
        if !parallel.isEmpty {
            let ended = runPool(
                parallel,
                workers: jobs,
                canAbandon: canAbandon,
                shouldStop: shouldStop,
                work: work,
                deliver: deliver,
                tick: tick
            )
            if ended != .allRan { return }
        }
        let alone = (0..<count).filter { isAlone($0) }
        if !alone.isEmpty {
            _ = runPool(alone, workers: 1, canAbandon: canAbandon, shouldStop: shouldStop, work: work, deliver: deliver, tick: tick)
        }
    }

    /// How a pool ended.
    enum PoolEnding: Equatable {
        case allRan
        case failed
        case stopped
    }

    /// Runs `indices` on a pool of worker threads that take them in order.
    private func runPool<Sample: Sendable>(
        _ indices: [Int],
        workers requested: Int,
        canAbandon: @escaping @Sendable (Int) -> Bool,
        shouldStop: @escaping @Sendable () -> Bool,
        work: @escaping @Sendable (Int) throws -> Sample,
        deliver: (Int, Result<Sample, any Error>) -> Void,
        tick: () -> Void
    ) -> PoolEnding {
        let shared = LockedState(SegmentState<Sample>(next: 0))
        let ready = DispatchSemaphore(value: 0)
        let workers = min(requested, indices.count)
        // Items in flight plus results not yet delivered: a worker waits for room before it starts
        // another item, so a caller slower than the workers (writing each result to disk) does
        // not make finished samples pile up in memory.
        // Created at 0 and raised by hand: libdispatch traps when a semaphore is freed below its
        // initial value, which a pool that stops early (abandoning items in flight) would leave.
        let room = DispatchSemaphore(value: 0)
        for _ in 0..<(2 * workers) { room.signal() }
        shared.withLock { $0.running = workers }
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    room.wait()
                    let index: Int? = shared.withLock { s in
                        guard s.next < indices.count, !s.failed, !shouldStop() else { return nil }
                        defer { s.next += 1 }
                        s.inFlight.insert(indices[s.next])
                        return indices[s.next]
                    }
                    guard let index else {
                        room.signal()
                        break
                    }
                    let result = Result { try work(index) }
                    shared.withLock { s in
                        if case .failure = result { s.failed = true }
                        s.inFlight.remove(index)
                        s.finished.append((index, result))
                    }
                    ready.signal()
                }
                shared.withLock { $0.running -= 1 }
                ready.signal()
            }
            // Deep simulations recurse little, but live items start threads of their own: give
            // every worker the main thread's stack size rather than the smaller default.
            thread.stackSize = 8 << 20
            thread.start()
        }
        while true {
            _ = ready.wait(timeout: .now() + Self.pollInterval)
            // Asked before the snapshot, not after: an item that asked to stop is then in it, in
            // flight or finished. Asked after, a stop set by an item taken since the snapshot
            // met an empty in-flight set, and that item was abandoned though it may not be.
            let stopping = shouldStop()
            let (batch, running, inFlight, failed) = shared.withLock { s in
                defer { s.finished.removeAll() }
                return (s.finished, s.running, s.inFlight, s.failed)
            }
            for (index, result) in batch {
                deliver(index, result)
                room.signal()
            }
            tick()
            if running == 0 { return failed ? .failed : .allRan }
            if stopping, inFlight.allSatisfy(canAbandon) { return .stopped }
        }
    }
}

/// What the workers of one pool share, under the scheduler's mutex.
private struct SegmentState<Sample: Sendable>: Sendable {
    var next: Int
    var failed = false
    var finished: [(Int, Result<Sample, any Error>)] = []
    var inFlight: Set<Int> = []
    var running = 0

    init(next: Int) { self.next = next }
}
