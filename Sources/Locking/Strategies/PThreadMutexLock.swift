/// `pthread-mutex`: a `pthread_mutex_t` with default attributes, allocated once on the heap.
package final class PThreadMutexLock: HeapPThreadMutex, LockStrategy, @unchecked Sendable {
    package init() { super.init(.normal) }
}
