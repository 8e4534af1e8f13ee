import Synchronization

/// `mutex`: the standard library's `Synchronization.Mutex`, which spins briefly before it waits
/// on a futex.
package final class SynchronizationMutexLock: LockStrategy, Sendable {
    let mutex = Mutex<Void>(())

    package init() {}

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        // Mutex.withLock wants a `sending` result, which a generic caller-owned value is not; the
        // value is carried out through a local instead (the closure is non-escaping).
        var result: Result?
        mutex.withLock { _ in result = body() }
        return result.unsafelyUnwrapped
    }
}
