/// Makes the shared object one kind of variant runs an operation on, with its concrete type.
///
/// Each kind of variant (a lock on the suite's wrappers, a user's whole wrapper, Signal's atomics,
/// the lock-free floor, the C references) is one source; `ContentionTargets` captures a source in
/// closures for the two visitors there are, which is how a registered variant stays one value
/// while its worker loop is still compiled for its type.
protocol TargetSource: Sendable {
    /// Passes a fresh shared object for `operation` with `threads` workers to `visitor`; nil when
    /// the source cannot run the operation.
    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output?
}

/// A variant's shared objects, one closure per visitor, each formed where the source's type is
/// concrete (see `LockVariant`).
struct ContentionTargets: Sendable {
    let measure: @Sendable (ContentionOperation, Int, ContentionRunner.Visit) -> ContentionRunner.Visit.Output?
    let capture: @Sendable (ContentionOperation, Int, UncontendedLoop.Capture) -> UncontendedLoop.Capture.Output?

    /// What it runs on, for `--list --verbose`: the lock type, or the target source's type.
    let implementation: String
    /// The lock contract's check on a fresh lock or wrapper (`ExclusionProbe`); nil for the
    /// suite's lock-free and reference targets, which have no body to exclude.
    let exclusion: (@Sendable () -> ExclusionProbe.Overlap?)?

    init<Source: TargetSource>(_ source: Source, exclusion: (@Sendable () -> ExclusionProbe.Overlap?)? = nil) {
        let fields = Mirror(reflecting: source).children.map { "\($0.label ?? "_"): \($0.value)" }
        implementation = String(reflecting: Source.self) + (fields.isEmpty ? "" : "(\(fields.joined(separator: ", ")))")
        measure = { source.withTarget($0, threads: $1, $2) }
        capture = { source.withTarget($0, threads: $1, $2) }
        self.exclusion = exclusion
    }

    /// The probe through a whole wrapper's `update`.
    static func exclusion<Counter: AtomicWrapper<UInt64>>(_ type: Counter.Type) -> @Sendable () -> ExclusionProbe.Overlap? {
        {
            let wrapper = Counter(0)
            return ExclusionProbe().run { body in wrapper.update { _ in body() } }
        }
    }

    /// A lock on the suite's wrappers; under `PATTERNBENCH_INJECT_REGRESSION=atomics:<name>` the
    /// same lock with 25 % more locked work per operation (`InjectedSlowdownLock`), for gate tests.
    /// A measured cell's critical-section work is bound while its objects are made, so the slowed
    /// lock repeats it; the uncontended loop (micro-benchmarks) has none.
    init<Lock: LockStrategy>(lock: Lock.Type, name: String) {
        let plain = LockedSource<Lock>()
        let slowed = LockedSource<InjectedSlowdownLock<Lock>>()
        let isSlowed = RegressionInjection.slowedVariants.contains(name)
        implementation = String(reflecting: Lock.self)
        exclusion = {
            let lock = Lock()
            return ExclusionProbe().run { body in lock.withLock(body) }
        }
        measure = { operation, threads, visit in
            guard isSlowed else { return plain.withTarget(operation, threads: threads, visit) }
            let held = visit.runner.calibration.iterations(for: visit.cell.csWork)
            return RegressionInjection.$criticalSectionIterations.withValue(held) {
                slowed.withTarget(operation, threads: threads, visit)
            }
        }
        capture = { isSlowed ? slowed.withTarget($0, threads: $1, $2) : plain.withTarget($0, threads: $1, $2) }
    }
}

/// A `LockStrategy` on the suite's own wrappers: every operation.
struct LockedSource<Lock: LockStrategy>: TargetSource {
    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output? {
        switch operation {
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

/// A user's `AtomicWrapper<UInt64>`: the counter-like operations and `different-atomics`.
struct WrapperSource<Counter: AtomicWrapper<UInt64>>: TargetSource {
    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output? {
        switch operation {
        case .increment: visitor.visit(WrapperIncrementTarget<Counter>())
        case .readMostly: visitor.visit(WrapperReadMostlyTarget<Counter>())
        case .flag: visitor.visit(WrapperFlagTarget<Counter>())
        case .transition: visitor.visit(WrapperTransitionTarget<Counter>())
        case .differentAtomics: visitor.visit(WrapperDifferentAtomicsTarget<Counter>(threads: threads))
        case .dictionaryUpdate, .arrayAppendDrain: nil
        }
    }
}

/// A user's wrapper with its array and dictionary forms: every operation.
struct WrapperCollectionsSource<Counter: AtomicWrapper<UInt64>, Array: AtomicWrapper<[UInt64]>, Dictionary: AtomicWrapper<[Int: UInt64]>>:
    TargetSource
{
    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output? {
        switch operation {
        case .dictionaryUpdate: visitor.visit(WrapperDictionaryTarget<Dictionary>())
        case .arrayAppendDrain: visitor.visit(WrapperArrayTarget<Array>())
        default: WrapperSource<Counter>().withTarget(operation, threads: threads, visitor)
        }
    }
}

/// Signal's atomics as written, on `SignalUnfairLock.sharedGlobal` (no atomic dictionary update).
struct SignalAtomicsSource: TargetSource {
    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output? {
        switch operation {
        case .increment: visitor.visit(SignalIncrementTarget())
        case .readMostly: visitor.visit(SignalReadMostlyTarget())
        case .flag: visitor.visit(SignalFlagTarget())
        case .transition: visitor.visit(SignalTransitionTarget())
        case .arrayAppendDrain: visitor.visit(SignalArrayTarget())
        case .differentAtomics: visitor.visit(SignalDifferentAtomicsTarget(threads: threads))
        case .dictionaryUpdate: nil
        }
    }
}

/// The lock-free floor: `Synchronization.Atomic` for what one atomic word can express.
struct LockFreeSource: TargetSource {
    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output? {
        switch operation {
        case .increment: visitor.visit(AtomicIncrementTarget())
        case .readMostly: visitor.visit(AtomicReadMostlyTarget())
        case .flag: visitor.visit(AtomicFlagTarget())
        case .transition: visitor.visit(AtomicTransitionTarget())
        case .differentAtomics: visitor.visit(AtomicDifferentAtomicsTarget(threads: threads))
        case .dictionaryUpdate, .arrayAppendDrain: nil
        }
    }
}

/// The C references' counter loops (`increment` only): on a raw pthread mutex, or a C11 atomic.
struct CReferenceSource: TargetSource {
    var atomic: Bool

    func withTarget<V: ContentionTargetVisitor>(_ operation: ContentionOperation, threads: Int, _ visitor: V) -> V.Output? {
        guard operation == .increment else { return nil }
        return visitor.visit(CReferenceIncrementTarget(atomic ? .atomic : .mutex))
    }
}
