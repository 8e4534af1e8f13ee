/// `pthread-mutex-adaptive`: a glibc `PTHREAD_MUTEX_ADAPTIVE_NP` mutex, which spins a bounded number
/// of times before sleeping in the kernel: glibc's answer to short critical sections.
package final class AdaptivePThreadMutexLock: HeapPThreadMutex, LockStrategy, @unchecked Sendable {
    package init() { super.init(.adaptive) }
}
