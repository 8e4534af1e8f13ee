#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State shared between threads behind a pthread mutex that ThreadSanitizer can see.
///
/// The harness's own shared state (the item scheduler, the test clock, the installed suite) uses
/// this rather than `Synchronization.Mutex`: on Linux, Mutex's contended path (FUTEX_LOCK_PI)
/// runs in the uninstrumented libswiftSynchronization.so, so TSan never sees that acquire and
/// reports two critical sections of one Mutex as a race (scripts/tsan-suppressions.txt). With a
/// pthread mutex every lock and unlock is intercepted, so `scripts/tsan.sh` checks this state
/// without a suppression. The patterns' measured locks keep their own lock types.
package final class LockedState<State>: @unchecked Sendable {
    // @unchecked: `state` is only read or written between `pthread_mutex_lock` and `_unlock` on `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var state: State

    package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, no other thread inside a `withLock` of this instance meanwhile.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
