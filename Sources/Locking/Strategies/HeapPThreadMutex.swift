import CLockShim

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `pthread_mutex_t` allocated once on the heap: the storage of `PThreadMutexLock`,
/// `AdaptivePThreadMutexLock` and `SignalUnfairLock`, which differ only in the mutex's type and in
/// the `withLock` they expose (`SignalUnfairLock`'s is typed-throws, as Signal's `TSMutex`).
///
/// Heap allocation gives the mutex a stable address (a pthread mutex must never move), which a
/// stored property of a Swift class does not formally guarantee. The subclasses are `final` and
/// `mutex` and `lock`/`unlock` are `final` here, so a locked operation is the same direct pthread
/// call it was when each class held its own pointer (instruction counts unchanged, see the commit).
package class HeapPThreadMutex: @unchecked Sendable {
    /// Default attributes, or glibc's `PTHREAD_MUTEX_ADAPTIVE_NP` (spins a bounded number of times
    /// before sleeping in the kernel).
    enum Kind {
        case normal
        case adaptive
    }

    // The mutex is the synchronisation itself; it is only touched through pthread calls.
    final let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(_ kind: Kind) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        switch kind {
        case .normal:
            let rc = pthread_mutex_init(mutex, nil)
            precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
        case .adaptive:
            let rc = lks_mutex_init_adaptive(mutex)
            precondition(rc == 0, "adaptive pthread_mutex_init failed: \(rc)")
        }
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    package final func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    package final func unlock() { pthread_mutex_unlock(mutex) }
}

/// The two lock strategies on a heap pthread mutex share one `withLock`.
extension LockStrategy where Self: HeapPThreadMutex {
    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        lock()
        defer { unlock() }
        return body()
    }
}
