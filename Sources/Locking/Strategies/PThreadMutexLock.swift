#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pthread-mutex`: a `pthread_mutex_t` with default attributes, allocated once on the heap.
///
/// Heap allocation gives the mutex a stable address (a pthread mutex must never move), which a
/// stored property of a Swift class does not formally guarantee.
package final class PThreadMutexLock: LockStrategy, @unchecked Sendable {
    // The mutex is the synchronisation itself; it is only touched through pthread calls.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
