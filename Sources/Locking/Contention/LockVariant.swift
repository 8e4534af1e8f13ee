/// One lock strategy under test, or a reference: the `variant` column of the results.
public enum LockVariant: String, CaseIterable, Sendable, Hashable {
    case pthreadMutex = "pthread-mutex"
    case nslock
    case dispatchQueue = "dispatch-queue"
    case mutex
    case spinlock
    case pthreadMutexAdaptive = "pthread-mutex-adaptive"
    /// Signal's atomics as written: every wrapper on one process-wide lock (`sharedGlobal`).
    case signalGlobalLock = "signal-global-lock"
    case atomic
    case unsynchronized
    case cPthreadMutex = "c-pthread-mutex"
    case cAtomic = "c-atomic"

    package var name: String { rawValue }

    /// The strategies of the default run: the three users asked about, `mutex`, Signal's own
    /// design, the `atomic` floor and the C reference.
    package static let defaultSlice: [LockVariant] = [
        .pthreadMutex, .nslock, .dispatchQueue, .mutex, .signalGlobalLock, .atomic, .cPthreadMutex, .cAtomic,
    ]

    /// Whether this variant can run `operation` at all.
    ///
    /// Lock-free and C variants exist for the counter-like operations only (`atomic` also for
    /// `different-atomics`); `unsynchronized` is kept away from arrays and dictionaries, where a
    /// race corrupts the heap instead of losing counts, and from `different-atomics`, where there
    /// is no race to lose. `signal-global-lock` skips `dictionary-update`: Signal's
    /// `AtomicDictionary` has no atomic read-modify-write of one entry.
    package func supports(_ operation: ContentionOperation) -> Bool {
        switch self {
        case .cPthreadMutex, .cAtomic:
            operation == .increment
        case .atomic:
            operation.isCounterLike || operation == .differentAtomics
        case .unsynchronized:
            operation.isCounterLike
        case .signalGlobalLock:
            operation != .dictionaryUpdate
        case .pthreadMutex, .nslock, .dispatchQueue, .mutex, .spinlock, .pthreadMutexAdaptive:
            true
        }
    }

    /// True for the variants that are not a Swift lock strategy but a yardstick for one.
    package var isReference: Bool {
        switch self {
        case .atomic, .unsynchronized, .cPthreadMutex, .cAtomic: true
        default: false
        }
    }

    /// True when the variant is expected to keep every update (all but the control).
    package var isSynchronized: Bool { self != .unsynchronized }

    /// The variant whose ns/op `ratio_to_c` divides by: C's mutex for locks, C's atomic for atomics.
    package var cReference: LockVariant? {
        switch self {
        case .cPthreadMutex, .cAtomic: nil
        case .atomic: .cAtomic
        default: .cPthreadMutex
        }
    }

    package var summary: String {
        switch self {
        case .pthreadMutex: "pthread_mutex_t, default attributes, allocated once"
        case .nslock: "Foundation NSLock (a pthread mutex behind a class)"
        case .dispatchQueue: "serial DispatchQueue, sync"
        case .mutex: "Synchronization.Mutex"
        case .spinlock: "test-and-test-and-set spinlock with a yield (not os_unfair_lock, which never spins)"
        case .pthreadMutexAdaptive: "PTHREAD_MUTEX_ADAPTIVE_NP"
        case .signalGlobalLock: "signal: Signal's atomics as written, every wrapper on one process-wide futex mutex (sharedGlobal)"
        case .atomic: "lock-free Synchronization.Atomic (the hardware floor)"
        case .unsynchronized: "no lock: the control that must lose updates"
        case .cPthreadMutex: "C reference: the counter loop on a raw pthread mutex"
        case .cAtomic: "C reference: the counter loop on a C11 atomic"
        }
    }
}
