// Uncontended per-operation costs of the lock strategies, through the atomic wrappers.
//
// One thread, nobody else wanting the lock: what every `AtomicValue.update` pays on the fast
// path. The operation loop runs inside Locking (`UncontendedLoop`), specialised per strategy as in
// bench-atomics' contention runs; each measured iteration is one batch of `scalingFactor`
// operations, so the figures are per operation.
import Benchmark
import BenchmarkDefaults
import Locking
import MicroKernels

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = BenchmarkDefaults.configuration(maxIterations: 300)

    for (variant, operation) in LockingMicroBenchmarks.pairs {
        register(variant, operation)
    }
}

/// Registers `Wrapper.operation(variant)` (see `LockingMicroBenchmarks` for which and why).
func register(_ variant: LockVariant, _ operation: ContentionOperation) {
    Benchmark(LockingMicroBenchmarks.name(variant, operation)) { benchmark in
        var loop = UncontendedLoop(variant: variant, operation: operation)!
        let batch = benchmark.scaledIterations.count
        loop.run(batch)  // first touch outside the measurement
        benchmark.startMeasurement()
        blackHole(loop.run(batch))
        benchmark.stopMeasurement()
        // A crash, not `benchmark.error`, which `thresholds check` would pass as EQUAL.
        if !loop.isConsistent { fatalError("\(variant.name) lost an update running \(operation.rawValue) alone") }
    }
}
