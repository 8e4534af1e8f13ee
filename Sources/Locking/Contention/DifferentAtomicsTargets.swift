import CLockReference
import Synchronization

// `different-atomics`: every thread increments its *own* atomic, so nothing is shared but the
// lock. With a per-object lock (every other strategy) the threads never contend; with Signal's
// `sharedGlobal` lock they contend on every operation, which is the cost of one process-wide lock.
//
// Each target makes `threads × spacing` objects and gives thread i object i × spacing, so that
// two threads' objects (and their locks and storage, allocated in the same order) sit on different
// cache lines for any allocator that hands out same-sized blocks in address order: false sharing
// would otherwise make the per-object locks contend on the cache line alone.

enum DifferentAtomics {
    static let spacing = 8
}

/// One `AtomicValue` per thread, each with its own lock (the whole-wrapper target over it).
typealias DifferentAtomicsTarget<Lock: LockStrategy> = WrapperDifferentAtomicsTarget<AtomicValue<UInt64, Lock>>

/// One Signal `AtomicValue` per thread, all on `SignalUnfairLock.sharedGlobal`, as Signal's
/// call sites create them.
final class SignalDifferentAtomicsTarget: ContentionTarget {
    let counters: [SignalAtomicValue<UInt64>]

    init(threads: Int) {
        counters = (0..<max(threads, 1) * DifferentAtomics.spacing).map { _ in SignalAtomicValue<UInt64>(0) }
    }

    func perform(_ count: Int, _ state: inout WorkerState) {
        signalIncrementLoop(counters[state.thread * DifferentAtomics.spacing], count, &state)
    }

    func observedTotal() -> Int64 {
        Int64(stride(from: 0, to: counters.count, by: DifferentAtomics.spacing).reduce(UInt64(0)) { $0 &+ counters[$1].get() })
    }
}

/// The floor: one lock-free `Synchronization.Atomic` per thread.
final class AtomicDifferentAtomicsTarget: ContentionTarget {
    final class Box: Sendable {
        let value = Atomic<UInt64>(0)
    }

    let counters: [Box]

    init(threads: Int) {
        counters = (0..<max(threads, 1) * DifferentAtomics.spacing).map { _ in Box() }
    }

    func perform(_ count: Int, _ state: inout WorkerState) {
        let counter = counters[state.thread * DifferentAtomics.spacing]
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            if cs != 0 { _ = clr_spin(cs) }
            counter.value.wrappingAdd(1, ordering: .relaxed)
            if gap != 0 { _ = clr_spin(gap) }
        }
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 {
        Int64(
            stride(from: 0, to: counters.count, by: DifferentAtomics.spacing).reduce(UInt64(0)) {
                $0 &+ counters[$1].value.load(ordering: .acquiring)
            }
        )
    }
}
