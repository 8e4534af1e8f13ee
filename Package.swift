// swift-tools-version: 6.1
// PatternBench: controlled, repeatable workloads for the concurrency and timing patterns messaging
// apps use. One library module per pattern, two shared modules underneath, thin executables on top.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

/// One workload's three targets, made the same way for every workload: its pattern library
/// (`module`, over Simulation, Measurement, Records and Timelines), its `bench-<tool>` executable and its unit tests
/// (`<module>Tests`). Each entry of `workloads` says only what differs.
struct WorkloadTargets {
    /// The tool's name: `throttle` gives `bench-throttle`.
    var tool: String
    /// The pattern library, named for the concept (`Throttling`).
    var module: String
    /// What the library needs beyond Simulation, Measurement, Records and Timelines.
    var uses: [Target.Dependency] = []
    /// The executable's dependencies: by default the `Suite` its command is registered on.
    var executable: [Target.Dependency] = ["BenchSuite", "BenchCommandLine"]
    /// What the unit tests need beyond the library, Simulation, Measurement and Records.
    var testUses: [Target.Dependency] = []
    /// Files under `Tests/<module>Tests` that are not sources.
    var testExclude: [String] = []

    var executableName: String { "bench-\(tool)" }

    var products: [Product] {
        [.executable(name: executableName, targets: [executableName]), .library(name: module, targets: [module])]
    }

    var targets: [Target] {
        [
            .target(
                name: module,
                dependencies: ["Simulation", "Measurement", "Records", "Timelines"] + uses,
                swiftSettings: swiftSettings
            ),
            .executableTarget(name: executableName, dependencies: executable, swiftSettings: swiftSettings),
            .testTarget(
                name: "\(module)Tests",
                dependencies: [.byName(name: module), "Simulation", "Measurement", "Records"] + testUses,
                exclude: testExclude,
                swiftSettings: swiftSettings
            ),
        ]
    }
}

let deque: Target.Dependency = .product(name: "DequeModule", package: "swift-collections")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

/// Every workload: one entry each (scripts/new-workload appends one). Its targets and products,
/// the end-to-end tests' executables and the contract table's modules all come from this list.
let workloads: [WorkloadTargets] = [
    // UI-update throttle policies and the main-thread/vsync model they are measured in.
    WorkloadTargets(tool: "throttle", module: "Throttling", uses: [deque, "Differential", "TraceImport"], testUses: ["ContractBreakers"]),
    // Lock strategies, the Signal-style atomic wrappers on them, and the contention workload.
    WorkloadTargets(tool: "atomics", module: "Locking", uses: ["CLockReference", "CLockShim"]),
    // Clock sources, skew scenarios, the timing clients, sim and live runners.
    WorkloadTargets(
        tool: "clock",
        module: "Timekeeping",
        uses: ["Processes", "CClockLoops", "Differential"],
        executable: ["Timekeeping", "Simulation", "Measurement", "Records", "BenchCommandLine"],
        testUses: ["Timelines", "OptionalPackages", .product(name: "PropertyBased", package: "swift-property-based")],
        testExclude: ["Corpus"]  // replayed by RobustnessCorpusTests, read through #filePath
    ),
    // Launch coordination: Signal's AppReadiness and its alternatives on one main executor
    // (virtual time and live), the globals strategies, and the bench-readiness workload.
    WorkloadTargets(
        tool: "readiness",
        module: "Readiness",
        uses: ["Processes", "Differential", "TraceImport"],
        testUses: ["Processes", "ContractBreakers"]
    ),
    // Cross-process cache invalidation: Signal's notification designs, a change-log design, sim and
    // live (real processes on a real SQLite database in WAL mode, the system libsqlite3).
    WorkloadTargets(
        tool: "invalidation",
        module: "Invalidation",
        uses: ["Processes", "CSQLite", "Differential"],
        executable: ["Invalidation", "Records", "BenchCommandLine"]
    ),
    // Count-bounded caches (Signal's generations, eviction policies, S3-FIFO), traces, sim and live.
    WorkloadTargets(tool: "cache", module: "Caching", uses: [deque, "Differential"], testUses: ["ContractBreakers"]),
    // Fan-out and fan-in: the login flow of "Sequencing tasks with DispatchGroup" under sequential
    // handlers, DispatchGroup notify/wait, Operation dependencies, async let, TaskGroup and hedging.
    WorkloadTargets(tool: "group", module: "FanOut", uses: ["Differential"]),
    // The app lifecycle under iOS's rules (watchdog, background time, jetsam, refresh windows) in
    // virtual time, and live: a real child process killed inside its saves on real storage.
    WorkloadTargets(tool: "lifecycle", module: "Lifecycle", uses: ["Processes", "CSQLite", "Differential"]),
]

let package = Package(
    name: "PatternBench",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bench-gate", targets: ["bench-gate"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Measurement", targets: ["Measurement"]),
        .library(name: "Records", targets: ["Records"]),
        .library(name: "Timelines", targets: ["Timelines"]),
        .library(name: "Processes", targets: ["Processes"]),
        .library(name: "Verdicts", targets: ["Verdicts"]),
        // The framework: a user's package registers its own variants on a Suite and gets an
        // executable with every bench-* flag (see Examples/ and docs/your-own-variant.md).
        .library(name: "BenchSuite", targets: ["BenchSuite"]),
    ] + workloads.flatMap(\.products),
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
        // The one way child processes are started, none outliving the run: spawned children, the
        // parent watch, a pipe's tail (CLockShim: the spawn, the list of live children, the parent-death signal).
        .target(name: "Processes", dependencies: ["CLockShim"], swiftSettings: swiftSettings),
        // Histograms, statistics, run metadata, the results schema, its writers and its streams.
        .target(
            name: "Records",
            dependencies: ["BuildProvenance", .product(name: "Histogram", package: "hdrhistogram-swift"), "Processes"],
            swiftSettings: swiftSettings
        ),
        // An item's timeline: trace events, the --events table and the Perfetto encoding.
        .target(name: "Timelines", dependencies: ["Records"], swiftSettings: swiftSettings),
        // The Workload contract, the variant registry, role contracts and the allocator switch.
        .target(
            name: "Measurement",
            // CLockShim: jemalloc's mallctl found at run time (Allocation/), shared by every live mode.
            dependencies: ["Records", "Timelines", "CLockShim"],
            swiftSettings: swiftSettings
        ),
        // The regression gate's verdicts: thresholds, rules, baseline comparison, results sets.
        .target(name: "Verdicts", dependencies: ["Measurement", "Records"], swiftSettings: swiftSettings),
        // Differential runs: random cases, two variants' observable logs compared, the first
        // divergence shrunk to a minimal case (each pattern module defines its case and its log).
        .target(name: "Differential", dependencies: ["Simulation", "Measurement", "Records", "Timelines"], swiftSettings: swiftSettings),
        // Instruments (xctrace XML) and Perfetto trace readers: signposts in, commits and intervals out.
        .target(name: "TraceImport", swiftSettings: swiftSettings),
        // The command-line conventions every bench-* executable shares.
        .target(
            name: "BenchCommandLine",
            dependencies: [
                "Simulation", "Measurement", "Processes", "Records", "Timelines", "Differential",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // The C reference counter loops (raw pthread mutex, C11 atomic) bench-atomics compares against.
        .target(name: "CLockReference", cSettings: [.unsafeFlags(["-O2"])]),
        // OS shims for Locking: RUSAGE_THREAD, CPU affinity, adaptive mutexes, jemalloc's mallctl via dlsym.
        .target(name: "CLockShim", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CClockLoops"),  // clock_gettime loops in C, the read-cost baseline
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The commands of the opened workloads (throttle, atomics, cache, readiness, group, lifecycle) and the gate, on
        // one Suite of registered variants: the suite's own executables and a user's are both thin
        // callers of it.
        .target(
            name: "BenchSuite",
            dependencies: [
                "Throttling", "Locking", "Caching", "Readiness", "Lifecycle", "FanOut", "Simulation", "Measurement", "Records", "Verdicts",
                "BenchCommandLine", "Differential",
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
        // The differential engine and its honesty checks on every workload that has a case.
        .testTarget(
            name: "DifferentialTests",
            dependencies: [
                "Differential", "Throttling", "Readiness", "Caching", "Lifecycle", "FanOut", "Timekeeping", "Invalidation", "Simulation",
                "Measurement",
                "TestSupport",
            ],
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
        .target(
            name: "OptionalPackages",
            dependencies: ["Measurement", "Processes"],
            path: "Tests/OptionalPackages",
            swiftSettings: swiftSettings
        ),
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
            dependencies: ["Measurement"] + workloads.map { .byName(name: $0.module) },
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BenchCommandLineTests",
            dependencies: ["BenchCommandLine", "Measurement", "Records", "Timelines", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MeasurementTests",
            dependencies: ["Measurement", "Processes", "Records", "Timelines", "Verdicts", "TestSupport", "OptionalPackages"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TraceImportTests",
            dependencies: ["TraceImport"],
            exclude: ["Fixtures"],  // read through #filePath (scripts/trace-fixtures.py writes them)
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            // The executables are dependencies so that `swift test` builds them before running them.
            dependencies: ["Measurement", "Records", "Timelines", "Verdicts", "bench-gate", "suite-fixture", "OptionalPackages"]
                + workloads.map { .byName(name: $0.executableName) },
            swiftSettings: swiftSettings
        ),
    ] + workloads.flatMap(\.targets)
)

/// scripts/tsan.sh builds and runs the unit tests under ThreadSanitizer with PB_SANITIZED_UNIT_TESTS
/// set. The test targets it does not run are left out of that build: EndToEndTests runs the built
/// executables as child processes (not the sanitized test process); DifferentialTests,
/// TraceImportTests, SimulationTests, LifecycleTests and ContractTableTests start no thread (virtual
/// time, parsing, the contract table's text: each on the test's own thread). With them go the
/// executables EndToEndTests depends on and the Lifecycle module, which were otherwise compiled and
/// linked sanitized for nothing (tsan.sh builds the test bundle alone). Any other build sees every
/// target.
if Context.environment["PB_SANITIZED_UNIT_TESTS"] != nil {
    let notSanitized: Set<String> = [
        "EndToEndTests", "DifferentialTests", "TraceImportTests", "SimulationTests", "LifecycleTests", "ContractTableTests",
    ]
    package.targets.removeAll { notSanitized.contains($0.name) }
}
