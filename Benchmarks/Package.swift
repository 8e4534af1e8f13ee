// swift-tools-version: 6.1
// PatternBench micro-benchmarks: per-operation costs measured with ordo-one/benchmark.
// A separate package so that the main package's build and tests never pull in the benchmark
// tooling. Run from this folder: `swift package benchmark` (see docs/micro-benchmarks.md).
import PackageDescription

let package = Package(
    name: "PatternBenchBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        // scripts/check-instructions.sh builds this product alone: it needs none of the benchmark
        // tooling, so CI and the nightly compile only the pattern modules for it.
        .executable(name: "instruction-counts", targets: ["InstructionCounts"])
    ],
    dependencies: [
        // `name:` pins the path dependency's identity to the main package's name, so the
        // `.product(..., package: "PatternBench")` lines below hold whatever folder the clone is in.
        .package(name: "PatternBench", path: ".."),
        // The MallocInterposer trait alone: it backs the malloc metrics on Swift 6.3 without the
        // default RuntimeInterposer trait, whose package is not in the mirror.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The shared default configuration (metrics, iterations, threshold tolerances).
        .target(
            name: "BenchmarkDefaults",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The fixtures and the list of benchmarks, shared by the ordo-one benchmarks and the
        // instruction counter so both measure the same operations under the same names.
        .target(
            name: "MicroKernels",
            dependencies: ["Throttling", "Simulation", "Locking", "Timekeeping"].map { .product(name: $0, package: "PatternBench") },
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `instruction-counts`: the kernels in callgrind's measured region (docs/micro-benchmarks.md).
        .executableTarget(
            name: "InstructionCounts",
            dependencies: ["MicroKernels"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)

/// One executable target per pattern module; its sources live in `Benchmarks/<name>/`, where the
/// benchmark plugin looks for them.
func benchmarkTarget(_ name: String, modules: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark"), "BenchmarkDefaults", "MicroKernels"]
            + modules.map { .product(name: $0, package: "PatternBench") },
        path: "Benchmarks/\(name)",
        swiftSettings: [.swiftLanguageMode(.v6)],
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

package.targets += [
    benchmarkTarget("ThrottlingBenchmarks", modules: ["Throttling", "Simulation"]),
    benchmarkTarget("LockingBenchmarks", modules: ["Locking"]),
    benchmarkTarget("TimekeepingBenchmarks", modules: ["Timekeeping"]),
]
