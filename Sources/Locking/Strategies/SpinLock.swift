import CLockShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `spinlock`: a test-and-test-and-set spinlock, the stand-in for Apple's `os_unfair_lock`, which
/// Linux lacks.
///
/// Waiters poll with a plain load (so the cache line stays shared while the lock is held) and only
/// then try the exchange, executing `pause` between polls. After `yieldAfter` failed polls a waiter
/// calls `sched_yield()`: without that, 8 threads on 2 vCPUs burn whole 4 ms time slices spinning
/// on a lock whose holder is descheduled, and a fixed-duration run measures little but that.
package final class SpinLock: LockStrategy, Sendable {
    let locked = Atomic<Bool>(false)
    static let yieldAfter = 1024

    package init() {}

    @inline(__always)
    func lock() {
        if locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockSlow()
    }

    @inline(never)
    func lockSlow() {
        var polls = 0
        while true {
            while locked.load(ordering: .relaxed) {
                lks_cpu_relax()
                polls += 1
                if polls >= Self.yieldAfter {
                    polls = 0
                    sched_yield()
                }
            }
            if locked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        }
    }

    @inline(__always)
    func unlock() {
        locked.store(false, ordering: .releasing)
    }

    @inline(__always)
    package func withLock<Result>(_ body: () -> Result) -> Result {
        lock()
        defer { unlock() }
        return body()
    }
}
