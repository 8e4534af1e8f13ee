import CLockShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pthread-mutex-adaptive`: a glibc `PTHREAD_MUTEX_ADAPTIVE_NP` mutex, which spins a bounded number
/// of times before sleeping in the kernel: glibc's answer to short critical sections.
package final class AdaptivePThreadMutexLock: LockStrategy, @unchecked Sendable {
    // The mutex is the synchronisation itself; it is only touched through pthread calls.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = lks_mutex_init_adaptive(mutex)
        precondition(rc == 0, "adaptive pthread_mutex_init failed: \(rc)")
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
