import Foundation
import Simulation

/// The producer thread's channel to the main loop: commits posted in order, and a wait that
/// wakes on a post or at an absolute monotonic deadline.
///
/// A pthread mutex and condition variable (with `CLOCK_MONOTONIC` for timed waits) rather than a
/// Dispatch queue: the main loop must wait for "a commit or the next vsync, whichever is first",
/// which is exactly `pthread_cond_timedwait`.
final class Mailbox: @unchecked Sendable {
    // `mutex` protects `commits` and `closed`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var commits: [Commit] = []
    private var closed = false

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func post(_ commit: Commit) {
        pthread_mutex_lock(mutex)
        commits.append(commit)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Takes everything posted so far without waiting.
    func drain() -> (commits: [Commit], closed: Bool) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let taken = commits
        commits.removeAll(keepingCapacity: true)
        return (taken, closed)
    }

    /// Waits until something is posted, the box is closed, or `clock` reaches `instant`.
    ///
    /// Once the box is closed nothing can be posted, so the wait is the clock's own sleep (a test
    /// clock advances instead of blocking). Otherwise a timed condition wait on `CLOCK_MONOTONIC`,
    /// for as long as the clock says is left.
    func wait(until instant: SimInstant, on clock: any MonotonicClock) {
        pthread_mutex_lock(mutex)
        let isClosed = closed, isEmpty = commits.isEmpty
        pthread_mutex_unlock(mutex)
        guard isEmpty else { return }
        if isClosed {
            clock.sleep(until: instant)
            return
        }
        let remaining = max((instant - clock.now()).nanoseconds, 0)
        let ns = SystemMonotonicClock.raw() + remaining
        wait(until: timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000)))
    }

    /// Waits until something is posted, the box is closed, or the absolute deadline passes.
    func wait(until deadline: timespec) {
        var deadline = deadline
        pthread_mutex_lock(mutex)
        while commits.isEmpty, !closed {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        pthread_mutex_unlock(mutex)
    }
}
