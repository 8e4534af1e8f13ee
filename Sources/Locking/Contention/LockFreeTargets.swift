import CLockReference
import Synchronization

// The floors: the same operations on a lock-free `Synchronization.Atomic`, and the C reference's
// counter loops. Critical-section work (`cs_work_ns`) is done right before the atomic operation
// (there is no critical section to hold), so "work + one atomic operation" is the floor for the
// same cell.

/// `atomic` for `increment`: a relaxed wrapping add.
final class AtomicIncrementTarget: ContentionTarget {
    let counter = Atomic<UInt64>(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        if cs == 0 && gap == 0 {
            for _ in 0..<count { counter.wrappingAdd(1, ordering: .relaxed) }
        } else {
            for _ in 0..<count {
                if cs != 0 { _ = clr_spin(cs) }
                counter.wrappingAdd(1, ordering: .relaxed)
                if gap != 0 { _ = clr_spin(gap) }
            }
        }
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 { Int64(counter.load(ordering: .acquiring)) }
}

/// `atomic` for `read-mostly`: acquiring loads and relaxed adds, 90/10.
final class AtomicReadMostlyTarget: ContentionTarget {
    let value = Atomic<UInt64>(0)

    // Written out rather than through `readMostlyLoop`: the critical-section work comes before the
    // coin here (no lock to hold it in), and through the shared loop this floor costs one
    // instruction an operation more under callgrind (26.1 instead of 25.1).
    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        var writes: Int64 = 0
        var sink: UInt64 = 0
        for _ in 0..<count {
            if cs != 0 { _ = clr_spin(cs) }
            if state.generator.next() % 10 == 0 {
                value.wrappingAdd(1, ordering: .relaxed)
                writes += 1
            } else {
                sink &+= value.load(ordering: .acquiring)
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
        blackHole(sink)
        state.tally &+= writes
    }

    func observedTotal() -> Int64 { Int64(value.load(ordering: .acquiring)) }
}

/// `atomic` for `flag`: compare-and-exchange false→true and true→false.
final class AtomicFlagTarget: ContentionTarget {
    let flag = Atomic<Bool>(false)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            if cs != 0 { _ = clr_spin(cs) }
            if state.clearNext {
                if flag.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged { state.tally -= 1 }
            } else {
                if flag.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged { state.tally += 1 }
            }
            state.clearNext.toggle()
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { flag.load(ordering: .acquiring) ? 1 : 0 }
}

/// `atomic` for `transition`: compare-and-exchange s→s+1; a failure returns the current state.
final class AtomicTransitionTarget: ContentionTarget {
    let machine = Atomic<UInt64>(0)

    func perform(_ count: Int, _ state: inout WorkerState) {
        let cs = state.csIterations, gap = state.gapIterations
        for _ in 0..<count {
            if cs != 0 { _ = clr_spin(cs) }
            let (exchanged, original) = machine.compareExchange(
                expected: state.guess,
                desired: state.guess &+ 1,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                state.guess &+= 1
                state.tally += 1
            } else {
                state.guess = original
            }
            if gap != 0 { _ = clr_spin(gap) }
        }
    }

    func observedTotal() -> Int64 { Int64(machine.load(ordering: .acquiring)) }
}

/// One of the C reference's counters (`CLockReference`) as its four C functions: one row per
/// counter, so that one target type runs either.
struct CReferenceCounter: Sendable {
    let create: @convention(c) () -> OpaquePointer?
    let destroy: @convention(c) (OpaquePointer?) -> Void
    let run: @convention(c) (OpaquePointer?, UInt64, UInt64, UInt64) -> Void
    let value: @convention(c) (OpaquePointer?) -> UInt64

    /// `c-pthread-mutex`: a C struct holding its own pthread mutex; the counter is only touched under it.
    static let mutex = CReferenceCounter(
        create: clr_mutex_counter_create,
        destroy: clr_mutex_counter_destroy,
        run: clr_mutex_counter_run,
        value: clr_mutex_counter_value
    )
    /// `c-atomic`: a C11 `_Atomic` counter; every access is atomic.
    static let atomic = CReferenceCounter(
        create: clr_atomic_counter_create,
        destroy: clr_atomic_counter_destroy,
        run: clr_atomic_counter_run,
        value: clr_atomic_counter_value
    )
}

/// `c-pthread-mutex` and `c-atomic`: the batch runs entirely in C (`CReferenceCounter.run`), one
/// call through the row's function pointer per batch, none per operation.
final class CReferenceIncrementTarget: ContentionTarget, @unchecked Sendable {
    // The C counter synchronises itself (see `CReferenceCounter`); Swift only holds its pointer.
    let functions: CReferenceCounter
    let counter: OpaquePointer

    init(_ functions: CReferenceCounter) {
        self.functions = functions
        counter = functions.create()!
    }

    deinit { functions.destroy(counter) }

    func perform(_ count: Int, _ state: inout WorkerState) {
        functions.run(counter, UInt64(count), state.csIterations, state.gapIterations)
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 { Int64(functions.value(counter)) }
}

/// Receives a freshly made target with its concrete type.
///
/// Why a visitor: a worker loop that calls `perform` through `any ContentionTarget` runs the
/// *unspecialised* generic body of e.g. `IncrementTarget<Lock>`, where every lock call goes
/// through a witness table (measured: +50 % on an uncontended pthread mutex). Handing the target
/// over with its static type lets the optimiser specialise the whole worker loop per strategy.
protocol ContentionTargetVisitor {
    associatedtype Output
    func visit<Target: ContentionTarget>(_ target: Target) -> Output
}
