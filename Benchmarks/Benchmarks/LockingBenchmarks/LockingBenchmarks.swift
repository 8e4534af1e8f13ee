// Uncontended per-operation costs of the lock strategies, through the atomic wrappers.
//
// One thread, nobody else wanting the lock: what every `AtomicValue.update` pays on the fast
// path. The operation loop runs inside Locking (`UncontendedLoop`), specialised per strategy as in
// bench-atomics' contention runs; each measured iteration is one batch of `scalingFactor`
// operations, so the figures are per operation.
import Benchmark
import BenchmarkDefaults
import Locking

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = BenchmarkDefaults.configuration(maxIterations: 300)

    // `increment` (`update { $0 &+= 1 }`) on every variant: the six Swift lock strategies, the
    // lock-free floor and the two C references. Not the unsynchronized control: alone, its loop
    // folds into almost nothing, and its time would be timer noise.
    // `signal-global-lock` and `different-atomics` are not registered yet: a benchmark without a
    // recorded thresholds file fails the check, and theirs have not been measured here.
    for variant in LockVariant.allCases where variant != .unsynchronized && variant != .signalGlobalLock {
        register(variant, .increment)
    }
    // Every other wrapper operation on the default strategy, and on the lock-free floor where
    // it exists.
    for operation in ContentionOperation.allCases where operation != .increment && operation != .differentAtomics {
        register(.pthreadMutex, operation)
        register(.atomic, operation)
    }
}

/// Registers `Wrapper.operation(variant)`, or nothing when the variant cannot run the operation.
func register(_ variant: LockVariant, _ operation: ContentionOperation) {
    guard UncontendedLoop(variant: variant, operation: operation) != nil else { return }
    Benchmark("\(wrapperName(variant, operation)).\(operation.rawValue)(\(variant.rawValue))") { benchmark in
        var loop = UncontendedLoop(variant: variant, operation: operation)!
        let batch = benchmark.scaledIterations.count
        loop.run(batch)  // first touch outside the measurement
        benchmark.startMeasurement()
        blackHole(loop.run(batch))
        benchmark.stopMeasurement()
        // A crash, not `benchmark.error`, which `thresholds check` would pass as EQUAL.
        if !loop.isConsistent { fatalError("\(variant.rawValue) lost an update running \(operation.rawValue) alone") }
    }
}

/// The wrapper type the operation goes through (the C references bypass the wrappers).
func wrapperName(_ variant: LockVariant, _ operation: ContentionOperation) -> String {
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
