import Foundation
import Measurement
import Synchronization

/// Runs a matrix's items on up to `jobs` threads and hands back each result by item index.
///
/// With `jobs` 1 the items run one after another in matrix order. Otherwise the `.parallel` items
/// run first, on a pool of `jobs` worker threads, and then the `.alone` items one by one in matrix
/// order, each with nothing else in flight (a matrix that interleaves them, like bench-atomics'
/// single-thread and contended cells, would otherwise never have two parallel items side by side).
/// Results are delivered to `deliver` on the calling thread, in completion order, with their
/// index: the caller stores them by index, so what it writes does not depend on `jobs`, on the
/// execution order or on timing. Before each item the scheduler asks `shouldStop`; once it says
/// yes (an interrupt), no new item starts and the ones in flight finish. After a failure no new
/// item starts either.
package struct ItemScheduler: Sendable {
    package let jobs: Int

    package init(jobs: Int) { self.jobs = max(1, jobs) }

    package func run<Sample: Sendable>(
        count: Int,
        isAlone: (Int) -> Bool,
        shouldStop: @escaping @Sendable () -> Bool,
        work: @escaping @Sendable (Int) throws -> Sample,
        deliver: (Int, Result<Sample, any Error>) -> Void
    ) {
        var failed = false
        func runAlone(_ index: Int) {
            let result = Result { try work(index) }
            if case .failure = result { failed = true }
            deliver(index, result)
        }
        guard jobs > 1 else {
            for index in 0..<count where !failed && !shouldStop() { runAlone(index) }
            return
        }
        let parallel = (0..<count).filter { !isAlone($0) }
        if !parallel.isEmpty {
            failed = runPool(parallel, shouldStop: shouldStop, work: work, deliver: deliver)
        }
        for index in 0..<count where isAlone(index) && !failed && !shouldStop() { runAlone(index) }
    }

    /// Runs `indices` on a pool of worker threads; true when an item failed.
    private func runPool<Sample: Sendable>(
        _ indices: [Int],
        shouldStop: @escaping @Sendable () -> Bool,
        work: @escaping @Sendable (Int) throws -> Sample,
        deliver: (Int, Result<Sample, any Error>) -> Void
    ) -> Bool {
        var failed = false
        let shared = Mutex(SegmentState<Sample>(next: 0))
        let ready = DispatchSemaphore(value: 0)
        let workers = min(jobs, indices.count)
        // Items in flight plus results not yet delivered: a worker waits for room before it starts
        // another item, so a caller slower than the workers (writing each result to disk) does
        // not make finished samples pile up in memory.
        let room = DispatchSemaphore(value: 2 * workers)
        shared.withLock { $0.running = workers }
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    room.wait()
                    let index: Int? = shared.withLock { s in
                        guard s.next < indices.count, !s.failed, !shouldStop() else { return nil }
                        defer { s.next += 1 }
                        return indices[s.next]
                    }
                    guard let index else {
                        room.signal()
                        break
                    }
                    let result = Result { try work(index) }
                    shared.withLock { s in
                        if case .failure = result { s.failed = true }
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
            ready.wait()
            let (batch, running) = shared.withLock { s -> ([(Int, Result<Sample, any Error>)], Int) in
                defer { s.finished.removeAll() }
                return (s.finished, s.running)
            }
            for (index, result) in batch {
                deliver(index, result)
                room.signal()
            }
            if running == 0 {
                let rest = shared.withLock { s -> [(Int, Result<Sample, any Error>)] in
                    defer { s.finished.removeAll() }
                    return s.finished
                }
                for (index, result) in rest {
                    deliver(index, result)
                    room.signal()
                }
                failed = shared.withLock { $0.failed }
                return failed
            }
        }
    }
}

/// What the workers of one pool share, under the scheduler's mutex.
private struct SegmentState<Sample: Sendable>: Sendable {
    var next: Int
    var failed = false
    var finished: [(Int, Result<Sample, any Error>)] = []
    var running = 0

    init(next: Int) { self.next = next }
}
