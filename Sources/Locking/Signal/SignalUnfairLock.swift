#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signal's `UnfairLock` (`TSMutex<Void>` over `os_unfair_lock`, `SignalServiceKit/Concurrency/
/// TSMutex.swift`) on Linux, with the one instance Signal passes to almost every atomic:
/// `sharedGlobal`, "the default lock shared by all atomics" (`Util/Atomics.swift`).
///
/// `os_unfair_lock` does not spin: a waiter sleeps in the kernel at once, and the lock is unfair.
/// Its closest Linux analogue is a normal (default) pthread mutex — glibc takes it with one
/// compare-and-swap and otherwise sleeps on a futex, with no spinning — never a spinlock. Like
/// `TSMutex`, the lock word is heap-allocated once for a stable address (`HeapPThreadMutex`).
package final class SignalUnfairLock: HeapPThreadMutex, @unchecked Sendable {
    /// The process-wide lock every Signal-style atomic shares unless given another.
    package static let sharedGlobal = SignalUnfairLock()

    package init() { super.init(.normal) }

    /// `TSMutex.withLock`: typed-throws, so a throwing body rethrows through the unlock.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Takes the lock if it is free; true when it did (for tests that need to see it held).
    package func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
}
