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

/// `c-pthread-mutex`: the batch runs entirely in C (`clr_mutex_counter_run`).
final class CMutexIncrementTarget: ContentionTarget, @unchecked Sendable {
    // The C struct holds its own pthread mutex; the counter is only touched under it.
    let counter: OpaquePointer

    init() { counter = clr_mutex_counter_create() }
    deinit { clr_mutex_counter_destroy(counter) }

    func perform(_ count: Int, _ state: inout WorkerState) {
        clr_mutex_counter_run(counter, UInt64(count), state.csIterations, state.gapIterations)
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 { Int64(clr_mutex_counter_value(counter)) }
}

/// `c-atomic`: the batch runs entirely in C (`clr_atomic_counter_run`).
final class CAtomicIncrementTarget: ContentionTarget, @unchecked Sendable {
    // The C counter is a C11 _Atomic; every access is atomic.
    let counter: OpaquePointer

    init() { counter = clr_atomic_counter_create() }
    deinit { clr_atomic_counter_destroy(counter) }

    func perform(_ count: Int, _ state: inout WorkerState) {
        clr_atomic_counter_run(counter, UInt64(count), state.csIterations, state.gapIterations)
        state.tally &+= Int64(count)
    }

    func observedTotal() -> Int64 { Int64(clr_atomic_counter_value(counter)) }
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

extension ContentionOperation {
    /// Makes a fresh shared object for `variant` running this operation with `threads` workers
    /// and passes it to `visitor`; nil when the pair is unsupported.
    func withTarget<V: ContentionTargetVisitor>(for variant: LockVariant, threads: Int = 1, _ visitor: V) -> V.Output? {
        guard variant.supports(self) else { return nil }
        switch variant {
        case .pthreadMutex where RegressionInjection.slows(variant):
            return withLockedTarget(InjectedSlowdownLock<PThreadMutexLock>.self, threads: threads, visitor)
        case .nslock where RegressionInjection.slows(variant):
            return withLockedTarget(InjectedSlowdownLock<FoundationLock>.self, threads: threads, visitor)
        case .pthreadMutex: return withLockedTarget(PThreadMutexLock.self, threads: threads, visitor)
        case .nslock: return withLockedTarget(FoundationLock.self, threads: threads, visitor)
        case .dispatchQueue: return withLockedTarget(DispatchQueueLock.self, threads: threads, visitor)
        case .mutex: return withLockedTarget(SynchronizationMutexLock.self, threads: threads, visitor)
        case .spinlock: return withLockedTarget(SpinLock.self, threads: threads, visitor)
        case .pthreadMutexAdaptive: return withLockedTarget(AdaptivePThreadMutexLock.self, threads: threads, visitor)
        case .unsynchronized: return withLockedTarget(UnsynchronizedLock.self, threads: threads, visitor)
        case .signalGlobalLock:
            switch self {
            case .increment: return visitor.visit(SignalIncrementTarget())
            case .readMostly: return visitor.visit(SignalReadMostlyTarget())
            case .flag: return visitor.visit(SignalFlagTarget())
            case .transition: return visitor.visit(SignalTransitionTarget())
            case .arrayAppendDrain: return visitor.visit(SignalArrayTarget())
            case .differentAtomics: return visitor.visit(SignalDifferentAtomicsTarget(threads: threads))
            case .dictionaryUpdate: return nil
            }
        case .atomic:
            switch self {
            case .increment: return visitor.visit(AtomicIncrementTarget())
            case .readMostly: return visitor.visit(AtomicReadMostlyTarget())
            case .flag: return visitor.visit(AtomicFlagTarget())
            case .transition: return visitor.visit(AtomicTransitionTarget())
            case .differentAtomics: return visitor.visit(AtomicDifferentAtomicsTarget(threads: threads))
            case .dictionaryUpdate, .arrayAppendDrain: return nil
            }
        case .cPthreadMutex: return visitor.visit(CMutexIncrementTarget())
        case .cAtomic: return visitor.visit(CAtomicIncrementTarget())
        }
    }

    private func withLockedTarget<Lock: LockStrategy, V: ContentionTargetVisitor>(_: Lock.Type, threads: Int, _ visitor: V) -> V.Output {
        switch self {
        case .increment: visitor.visit(IncrementTarget<Lock>())
        case .readMostly: visitor.visit(ReadMostlyTarget<Lock>())
        case .flag: visitor.visit(FlagTarget<Lock>())
        case .transition: visitor.visit(TransitionTarget<Lock>())
        case .dictionaryUpdate: visitor.visit(DictionaryTarget<Lock>())
        case .arrayAppendDrain: visitor.visit(ArrayTarget<Lock>())
        case .differentAtomics: visitor.visit(DifferentAtomicsTarget<Lock>(threads: threads))
        }
    }
}
