import Measurement

extension LockVariant {
    /// The suite's own variants, in `--list` order: one registration each, the same path a user's
    /// variant takes (`Suite.locks`). The default run is those with `isDefault`: the three strategies
    /// users asked about, `mutex`, Signal's own design, the `atomic` floor and the C references.
    public static var builtIn: [LockVariant] {
        [
            pthreadMutex, nslock, dispatchQueue, mutex, spinlock, pthreadMutexAdaptive, signalGlobalLock, atomic, unsynchronized,
            cPthreadMutex, cAtomic,
        ]
    }

    /// `pthread-mutex`: `pthread_mutex_t` with default attributes.
    public static let pthreadMutex = LockVariant(
        name: "pthread-mutex",
        origin: .platform,
        summary: "pthread_mutex_t, default attributes, allocated once",
        lock: PThreadMutexLock.self
    )
    /// `nslock`: Foundation's `NSLock`.
    public static let nslock = LockVariant(
        name: "nslock",
        origin: .platform,
        summary: "Foundation NSLock (a pthread mutex behind a class)",
        lock: FoundationLock.self
    )
    /// `dispatch-queue`: a serial `DispatchQueue` and `sync`.
    public static let dispatchQueue = LockVariant(
        name: "dispatch-queue",
        origin: .platform,
        summary: "serial DispatchQueue, sync",
        lock: DispatchQueueLock.self
    )
    /// `mutex`: the Synchronization module's `Mutex`.
    public static let mutex = LockVariant(
        name: "mutex",
        origin: .platform,
        summary: "Synchronization.Mutex",
        lock: SynchronizationMutexLock.self
    )
    /// `spinlock`: a test-and-test-and-set spin lock.
    public static let spinlock = LockVariant(
        name: "spinlock",
        origin: .platform,
        summary: "test-and-test-and-set spinlock with a yield (not os_unfair_lock, which never spins)",
        isDefault: false,
        lock: SpinLock.self
    )
    /// glibc's; elsewhere `--variant` naming it is refused in one line and `--full` leaves it out.
    public static let pthreadMutexAdaptive: LockVariant = {
        #if os(Linux)
        let unavailable: String? = nil
        #else
        let unavailable: String? = "PTHREAD_MUTEX_ADAPTIVE_NP is glibc's (Linux only)"
        #endif
        return LockVariant(
            info: VariantInfo(name: "pthread-mutex-adaptive", origin: .platform, summary: "PTHREAD_MUTEX_ADAPTIVE_NP", isDefault: false),
            operations: ContentionOperation.allCases,
            unavailable: unavailable,
            targets: ContentionTargets(lock: AdaptivePThreadMutexLock.self, name: "pthread-mutex-adaptive")
        )
    }()

    /// Signal's atomics as written: every wrapper on one process-wide lock (`sharedGlobal`).
    /// No `dictionary-update`: Signal's `AtomicDictionary` has no atomic read-modify-write of one entry.
    public static let signalGlobalLock = LockVariant(
        info: VariantInfo(
            name: "signal-global-lock",
            origin: .signal,
            summary: "Signal's atomics as written, every wrapper on one process-wide futex mutex (sharedGlobal)"
        ),
        operations: ContentionOperation.allCases.filter { $0 != .dictionaryUpdate },
        targets: ContentionTargets(SignalAtomicsSource())
    )

    /// The hardware floor, for the counter-like operations and `different-atomics`.
    public static let atomic = LockVariant(
        info: VariantInfo(name: "atomic", origin: .reference, summary: "lock-free Synchronization.Atomic (the hardware floor)"),
        operations: ContentionOperation.allCases.filter { $0.isCounterLike || $0 == .differentAtomics },
        cReference: "c-atomic",
        targets: ContentionTargets(LockFreeSource())
    )

    /// The control: kept away from arrays and dictionaries, where a race corrupts the heap instead
    /// of losing counts, and from `different-atomics`, where there is no race to lose.
    public static let unsynchronized = LockVariant(
        info: VariantInfo(
            name: "unsynchronized",
            origin: .reference,
            summary: "no lock: the control that must lose updates",
            isDefault: false
        ),
        operations: ContentionOperation.allCases.filter(\.isCounterLike),
        isSynchronized: false,
        targets: ContentionTargets(lock: UnsynchronizedLock.self, name: "unsynchronized")
    )

    /// `c-pthread-mutex`: the counter loop in C on a raw pthread mutex (the reference of `ratio_to_c`).
    public static let cPthreadMutex = LockVariant(
        info: VariantInfo(name: "c-pthread-mutex", origin: .reference, summary: "C reference: the counter loop on a raw pthread mutex"),
        operations: [.increment],
        cReference: nil,
        targets: ContentionTargets(CReferenceSource(atomic: false))
    )

    /// `c-atomic`: the counter loop in C on a C11 atomic.
    public static let cAtomic = LockVariant(
        info: VariantInfo(name: "c-atomic", origin: .reference, summary: "C reference: the counter loop on a C11 atomic"),
        operations: [.increment],
        cReference: nil,
        targets: ContentionTargets(CReferenceSource(atomic: true))
    )

    /// The strategies of the default run (those registered with `isDefault`).
    package static var defaultSlice: [LockVariant] { builtIn.filter(\.info.isDefault) }

    /// Makes a fresh shared object for this variant running `operation` with `threads` workers and
    /// passes it to `visitor`; nil when the pair is unsupported.
    func withTarget(_ operation: ContentionOperation, threads: Int, _ visitor: ContentionRunner.Visit) -> ContentionRunner.Visit.Output? {
        supports(operation) ? targets.measure(operation, threads, visitor) : nil
    }

    func withTarget(
        _ operation: ContentionOperation,
        threads: Int = 1,
        _ visitor: UncontendedLoop.Capture
    ) -> UncontendedLoop.Capture.Output? {
        supports(operation) ? targets.capture(operation, threads, visitor) : nil
    }
}
