import Dispatch

/// `dispatch-queue`: a private serial `DispatchQueue` used with `sync`.
///
/// Uncontended, `sync` on a serial queue is a compare-and-swap and a direct call on the caller's
/// thread; contended, the waiter sleeps on a futex and is woken per operation, which is the cost
/// users asked about.
package final class DispatchQueueLock: LockStrategy, @unchecked Sendable {
    // A serial queue serialises the blocks submitted to it; that is the exclusion.
    let queue = DispatchQueue(label: "PatternBench.DispatchQueueLock")

    package init() {}

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        queue.sync(execute: body)
    }
}
