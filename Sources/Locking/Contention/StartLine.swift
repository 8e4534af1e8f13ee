import CLockShim
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The start barrier and stop signal of one fixed-duration run.
///
/// Workers announce themselves and wait for `go`, so that no thread starts measuring while others
/// are still being created; the coordinator raises `stop` after the duration, and each worker
/// notices it between batches (never per operation).
final class StartLine: Sendable {
    let ready = Atomic<Int>(0)
    let go = Atomic<Bool>(false)
    let stop = Atomic<Bool>(false)
    /// Raised after an in-run warm-up: workers then start their measured window.
    let measuring = Atomic<Bool>(false)

    /// Worker side: count in, then wait (yielding the CPU, since threads may outnumber cores).
    func arriveAndWait() {
        ready.add(1, ordering: .releasing)
        while !go.load(ordering: .acquiring) { sched_yield() }
    }

    /// Coordinator side: wait until `count` workers arrived, then release them.
    func waitForArrivals(_ count: Int) {
        while ready.load(ordering: .acquiring) < count { sched_yield() }
    }

    func release() { go.store(true, ordering: .releasing) }

    @inline(__always)
    var isMeasuring: Bool { measuring.load(ordering: .relaxed) }

    func startMeasuring() { measuring.store(true, ordering: .releasing) }

    @inline(__always)
    var shouldStop: Bool { stop.load(ordering: .relaxed) }

    func signalStop() { stop.store(true, ordering: .releasing) }
}

/// One slot per worker, each written only by its own worker and read after the join (which orders
/// the writes before the reads).
final class WorkerBoard<Slot>: @unchecked Sendable {
    // Slot i is written by worker i only; the coordinator reads after pthread_join.
    let slots: UnsafeMutablePointer<Slot>
    let count: Int

    init(count: Int, initial: Slot) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: initial, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func write(_ slot: Slot, at index: Int) { slots[index] = slot }
    var all: [Slot] { Array(UnsafeBufferPointer(start: slots, count: count)) }
}
