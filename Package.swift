// swift-tools-version: 6.1
// PatternBench: controlled, repeatable workloads for the concurrency and timing patterns messaging
// apps use. One library module per pattern, two shared modules underneath, thin executables on top.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

let package = Package(
    name: "PatternBench",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bench-throttle", targets: ["bench-throttle"]),
        .executable(name: "bench-atomics", targets: ["bench-atomics"]),
        .executable(name: "bench-gate", targets: ["bench-gate"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Measurement", targets: ["Measurement"]),
        .library(name: "Throttling", targets: ["Throttling"]),
        .library(name: "Locking", targets: ["Locking"]),
        .executable(name: "bench-clock", targets: ["bench-clock"]),
        .library(name: "Timekeeping", targets: ["Timekeeping"]),
        .executable(name: "bench-readiness", targets: ["bench-readiness"]),
        .library(name: "Readiness", targets: ["Readiness"]),
        .executable(name: "bench-invalidation", targets: ["bench-invalidation"]),
        .library(name: "Invalidation", targets: ["Invalidation"]),
        .executable(name: "bench-cache", targets: ["bench-cache"]),
        .library(name: "Caching", targets: ["Caching"]),
        .executable(name: "bench-group", targets: ["bench-group"]),
        .library(name: "FanOut", targets: ["FanOut"]),
        .executable(name: "bench-lifecycle", targets: ["bench-lifecycle"]),
        .library(name: "Lifecycle", targets: ["Lifecycle"]),
        // The framework: a user's package registers its own variants on a Suite and gets an
        // executable with every bench-* flag (see Examples/ and docs/your-own-variant.md).
        .library(name: "BenchSuite", targets: ["BenchSuite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // Structure-aware property tests of the input readers and the clock schedule (tests only).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // The API reference (scripts/check-docs.sh: `swift package generate-documentation`, DocC).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Virtual time: event queue, seeded generator, arrival models, streamed trace reader.
        .target(
            name: "Simulation",
            dependencies: ["CZlib"],
            swiftSettings: swiftSettings
        ),
        // The commit and dirty flag of the source being built, generated before every build.
        .plugin(name: "ProvenancePlugin", capability: .buildTool()),
        .target(name: "BuildProvenance", swiftSettings: swiftSettings, plugins: ["ProvenancePlugin"]),
        // The system zlib (Debian zlib1g-dev), so that gzip-compressed traces stream directly.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // Histograms, statistics, run metadata, the results schema and its writers.
        .target(
            name: "Measurement",
            // CLockShim: jemalloc's mallctl found at run time (Allocation/), shared by every live mode;
            // the one way child processes are started, none outliving the run (Processes/).
            dependencies: ["BuildProvenance", .product(name: "Histogram", package: "hdrhistogram-swift"), "CLockShim"],
            swiftSettings: swiftSettings
        ),
        // Instruments (xctrace XML) and Perfetto trace readers: signposts in, commits and intervals out.
        .target(name: "TraceImport", swiftSettings: swiftSettings),
        // The command-line conventions every bench-* executable shares.
        .target(
            name: "BenchCommandLine",
            dependencies: [
                "Simulation", "Measurement",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // UI-update throttle policies and the main-thread/vsync model they are measured in.
        .target(
            name: "Throttling",
            dependencies: [
                "Simulation", "Measurement", "TraceImport",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-throttle",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        // Lock strategies, the Signal-style atomic wrappers on them, and the contention workload.
        .target(
            name: "Locking",
            dependencies: ["Simulation", "Measurement", "CLockReference", "CLockShim"],
            swiftSettings: swiftSettings
        ),
        // The C reference counter loops (raw pthread mutex, C11 atomic) bench-atomics compares against.
        .target(name: "CLockReference", cSettings: [.unsafeFlags(["-O2"])]),
        // OS shims for Locking: RUSAGE_THREAD, CPU affinity, adaptive mutexes, jemalloc's mallctl via dlsym.
        .target(name: "CLockShim", linkerSettings: [.linkedLibrary("dl")]),
        .executableTarget(
            name: "bench-atomics",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LockingTests",
            dependencies: ["Locking", "Measurement"],
            swiftSettings: swiftSettings
        ),
        // Clock sources, skew scenarios, the timing clients, sim and live runners.
        .target(name: "CClockLoops"),  // clock_gettime loops in C, the read-cost baseline
        .target(
            name: "Timekeeping",
            dependencies: ["Simulation", "Measurement", "CClockLoops"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-clock",
            dependencies: ["Timekeeping", "Simulation", "Measurement", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TimekeepingTests",
            dependencies: [
                "Timekeeping", "Simulation", "Measurement", "OptionalPackages",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Corpus"],  // replayed by RobustnessCorpusTests, read through #filePath
            swiftSettings: swiftSettings
        ),
        // Launch coordination: Signal's AppReadiness and its alternatives on one main executor
        // (virtual time and live), the globals strategies, and the bench-readiness workload.
        .target(
            name: "Readiness",
            dependencies: ["Simulation", "Measurement", "TraceImport"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-readiness",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ReadinessTests",
            dependencies: ["Readiness", "Simulation", "Measurement", "ContractBreakers"],
            swiftSettings: swiftSettings
        ),
        // Cross-process cache invalidation: Signal's notification designs, a change-log design, sim and
        // live (real processes on a real SQLite database in WAL mode, the system libsqlite3).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "Invalidation",
            dependencies: ["Simulation", "Measurement", "CSQLite"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-invalidation",
            dependencies: ["Invalidation", "Measurement", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InvalidationTests",
            dependencies: ["Invalidation", "Simulation", "Measurement"],
            swiftSettings: swiftSettings
        ),
        // Count-bounded caches (Signal's generations, eviction policies, S3-FIFO), traces, sim and live.
        .target(
            name: "Caching",
            dependencies: ["Simulation", "Measurement", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-cache",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CachingTests",
            dependencies: ["Caching", "Simulation", "Measurement", "ContractBreakers"],
            swiftSettings: swiftSettings
        ),
        // Fan-out and fan-in: the login flow of "Sequencing tasks with DispatchGroup" under sequential
        // handlers, DispatchGroup notify/wait, Operation dependencies, async let, TaskGroup and hedging.
        .target(
            name: "FanOut",
            dependencies: ["Simulation", "Measurement"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-group",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FanOutTests",
            dependencies: ["FanOut", "Simulation", "Measurement"],
            swiftSettings: swiftSettings
        ),
        // The app lifecycle under iOS's rules (watchdog, background time, jetsam, refresh windows) in
        // virtual time, and live: a real child process killed inside its saves on real storage.
        .target(
            name: "Lifecycle",
            dependencies: ["Simulation", "Measurement", "CSQLite"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "bench-lifecycle",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "LifecycleTests",
            dependencies: ["Lifecycle", "Simulation", "Measurement"],
            swiftSettings: swiftSettings
        ),
        // The commands of the opened workloads (throttle, atomics, cache, readiness, group, lifecycle) and the gate, on
        // one Suite of registered variants: the suite's own executables and a user's are both thin
        // callers of it.
        .target(
            name: "BenchSuite",
            dependencies: [
                "Throttling", "Locking", "Caching", "Readiness", "Lifecycle", "FanOut", "Simulation", "Measurement",
                "BenchCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // A user's executable as the end-to-end tests need one: user variants that behave, trap,
        // hang or break determinism (the tutorial-grade example is the package under Examples/).
        .executableTarget(
            name: "suite-fixture",
            dependencies: [
                "BenchSuite", "Throttling", "Locking", "Caching", "Simulation", "Measurement", "FanOut", "Readiness", "ContractBreakers",
                "Lifecycle",
            ],
            swiftSettings: swiftSettings
        ),
        // The regression gate: thresholds and baseline comparison over results folders.
        .executableTarget(
            name: "bench-gate",
            dependencies: ["BenchSuite", "BenchCommandLine"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SimulationTests",
            dependencies: ["Simulation", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        // What several test targets share (a temporary folder removed after the test).
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
        // The one way a test asks for an optional Debian package (faketime, libjemalloc-dev, …):
        // skipped without it, naming the package; failed without it under CI. A target of its own:
        // EndToEndTests has a `temporaryFolder` of its own that TestSupport's would make ambiguous.
        .target(name: "OptionalPackages", dependencies: ["Measurement"], path: "Tests/OptionalPackages", swiftSettings: swiftSettings),
        // Variants that break one rule of their role's contract each, and their twins that keep
        // it: the unit tests' and suite-fixture's (ContractBreakerTests) one copy.
        .target(
            name: "ContractBreakers",
            dependencies: ["Caching", "Throttling", "Readiness", "Simulation"],
            path: "Tests/ContractBreakers",
            swiftSettings: swiftSettings
        ),
        // docs/your-own-variant.md's contract table against every role's declared rules.
        .testTarget(
            name: "ContractTableTests",
            dependencies: [
                "Measurement", "Throttling", "Locking", "Caching", "Readiness", "Lifecycle", "FanOut", "Timekeeping", "Invalidation",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchCommandLineTests",
            dependencies: ["BenchCommandLine", "Measurement", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MeasurementTests",
            dependencies: ["Measurement", "TestSupport", "OptionalPackages"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TraceImportTests",
            dependencies: ["TraceImport"],
            exclude: ["Fixtures"],  // read through #filePath (scripts/trace-fixtures.py writes them)
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ThrottlingTests",
            dependencies: ["Throttling", "Simulation", "Measurement", "ContractBreakers"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            // The executables are dependencies so that `swift test` builds them before running them.
            dependencies: [
                "Measurement", "bench-throttle", "bench-atomics", "bench-clock", "bench-gate", "bench-readiness",
                "bench-invalidation", "bench-cache", "suite-fixture", "bench-lifecycle", "bench-group", "OptionalPackages",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
