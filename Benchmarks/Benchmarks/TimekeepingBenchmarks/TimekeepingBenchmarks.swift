import Benchmark
import Timekeeping

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 1,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 50
    )
    for kind in ClockKind.allCases {
        Benchmark("SystemClock.now(\(kind.name))") { benchmark in
            let clock = SystemClock(kind)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(clock.now())
            }
        }
    }
}
