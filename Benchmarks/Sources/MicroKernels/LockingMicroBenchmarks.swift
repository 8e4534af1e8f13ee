import Locking

/// Which uncontended lock operations the micro-benchmarks measure, and under which names.
///
/// One list for the ordo-one benchmarks (`LockingBenchmarks`) and the instruction counter
/// (`instruction-counts`), so a benchmark's time and its instruction count are gated under the
/// same name.
public enum LockingMicroBenchmarks {
    /// `increment` on every variant: the six Swift lock strategies, the lock-free floor and the two
    /// C references. Not the unsynchronized control: alone, its loop folds into almost nothing, and
    /// its time would be timer noise. Not `signal-global-lock`: a benchmark without a recorded
    /// thresholds file fails the check, and its thresholds have not been measured. Then every other
    /// wrapper operation on the default strategy, and on the lock-free floor where it exists.
    /// Pairs a variant cannot run (`UncontendedLoop` gives nil) are left out.
    public static let pairs: [(variant: LockVariant, operation: ContentionOperation)] = {
        var pairs: [(LockVariant, ContentionOperation)] = []
        for variant in LockVariant.builtIn where variant != .unsynchronized && variant != .signalGlobalLock {
            pairs.append((variant, .increment))
        }
        for operation in ContentionOperation.allCases where operation != .increment && operation != .differentAtomics {
            pairs.append((.pthreadMutex, operation))
            pairs.append((.atomic, operation))
        }
        return pairs.filter { UncontendedLoop(variant: $0.0, operation: $0.1) != nil }
    }()

    /// `Wrapper.operation(variant)`, the benchmark's name inside its target.
    public static func name(_ variant: LockVariant, _ operation: ContentionOperation) -> String {
        "\(wrapperName(variant, operation)).\(operation.rawValue)(\(variant.name))"
    }

    /// The wrapper type the operation goes through (the C references bypass the wrappers).
    static func wrapperName(_ variant: LockVariant, _ operation: ContentionOperation) -> String {
        switch (variant, operation) {
        case (.cPthreadMutex, _), (.cAtomic, _): "CReference"
        case (.atomic, _): "Atomic"
        case (.signalGlobalLock, _): "SignalAtomics"
        case (_, .increment), (_, .readMostly), (_, .differentAtomics): "AtomicValue"
        case (_, .flag): "AtomicFlag"
        case (_, .transition): "AtomicState"
        case (_, .dictionaryUpdate): "AtomicDictionary"
        case (_, .arrayAppendDrain): "AtomicArray"
        }
    }
}
