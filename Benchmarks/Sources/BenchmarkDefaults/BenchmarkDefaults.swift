import Benchmark

/// The configuration every PatternBench micro-benchmark target starts from, so that the three
/// targets measure and gate the same way.
public enum BenchmarkDefaults {
    /// wall clock and allocation counts, 1,000 operations per measured iteration, half a second.
    ///
    /// The static threshold check compares p90s. Allocation counts are exact for a fixed build, so
    /// any new malloc is a regression; time on a shared 2-core machine gets a generous ±50 %, so
    /// only a gross slowdown fails (bench-gate's repeated, tested ratios catch the smaller ones).
    public static func configuration(maxIterations: Int = 200) -> Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal],
            warmupIterations: 3,
            scalingFactor: .kilo,
            maxDuration: .milliseconds(500),
            maxIterations: maxIterations,
            thresholds: [
                .mallocCountTotal: .init(relative: [.p90: 0], absolute: [.p90: 0]),
                .wallClock: .init(relative: [.p90: 50]),
            ]
        )
    }
}
