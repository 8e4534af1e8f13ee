import Foundation
import Measurement
import Synchronization

/// Runs a matrix's items on up to `jobs` threads and hands back each result by item index.
///
/// Consecutive `.parallel` items share the workers; an `.alone` item waits until nothing else is
/// in flight and runs by itself. Results are delivered to `deliver` on the calling thread, in
/// completion order, with their index: the caller stores them by index, so what it writes does not
/// depend on `jobs` or on timing. Before each item the scheduler asks `shouldStop`; once it says
/// yes (an interrupt), no new item starts and the ones in flight finish.
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
        var start = 0
        while start < count, !shouldStop() {
            if isAlone(start) || jobs == 1 {
                deliver(start, Result { try work(start) })
                start += 1
                continue
            }
            var end = start
            while end < count, !isAlone(end) { end += 1 }
            runSegment(start..<end, shouldStop: shouldStop, work: work, deliver: deliver)
            start = end
        }
    }

    /// Runs the `.parallel` items of `range` on a pool of worker threads.
    private func runSegment<Sample: Sendable>(
        _ range: Range<Int>,
        shouldStop: @escaping @Sendable () -> Bool,
        work: @escaping @Sendable (Int) throws -> Sample,
        deliver: (Int, Result<Sample, any Error>) -> Void
    ) {
        let shared = Mutex(SegmentState<Sample>(next: range.lowerBound))
        let ready = DispatchSemaphore(value: 0)
        let workers = min(jobs, range.count)
        shared.withLock { $0.running = workers }
        for _ in 0..<workers {
            let thread = Thread {
                while true {
                    let index: Int? = shared.withLock { s in
                        guard s.next < range.upperBound, !s.failed, !shouldStop() else { return nil }
                        defer { s.next += 1 }
                        return s.next
                    }
                    guard let index else { break }
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
            for (index, result) in batch { deliver(index, result) }
            if running == 0 {
                let rest = shared.withLock { s -> [(Int, Result<Sample, any Error>)] in
                    defer { s.finished.removeAll() }
                    return s.finished
                }
                for (index, result) in rest { deliver(index, result) }
                return
            }
        }
    }
}

/// What the workers of one segment share, under the scheduler's mutex.
private struct SegmentState<Sample: Sendable>: Sendable {
    var next: Int
    var failed = false
    var finished: [(Int, Result<Sample, any Error>)] = []
    var running = 0

    init(next: Int) { self.next = next }
}
