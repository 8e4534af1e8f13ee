// swift-tools-version: 6.1
// A team's own benchmark package: its variants, PatternBench's scenarios. Depends on PatternBench
// by path here (CI builds it from a clean clone); in your package use its URL and a version.
import PackageDescription

let package = Package(
    name: "MyBench",
    platforms: [.macOS(.v15)],
    // snippet: manifest
    dependencies: [
        // `name:` fixes the identity whatever folder the clone is in. In your package: PatternBench's
        // path, or `.package(url: <its git URL>, from: <a version>)`.
        .package(name: "PatternBench", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "my-bench",
            dependencies: [
                .product(name: "BenchSuite", package: "PatternBench"),  // Suite, SuiteMain: the framework
                .product(name: "Throttling", package: "PatternBench"),  // UpdateThrottler, ThrottlerVariant
                .product(name: "Locking", package: "PatternBench"),  // LockStrategy, AtomicWrapper, LockVariant
                .product(name: "Caching", package: "PatternBench"),  // CountBoundedCache, CacheVariant
                .product(name: "Readiness", package: "PatternBench"),  // ReadinessPolicy, ReadinessAPI, ReadinessVariant
                .product(name: "FanOut", package: "PatternBench"),  // FanOutShape, FanOutVariant
                .product(name: "Lifecycle", package: "PatternBench"),  // LifecyclePolicy, LifecycleVariant
                .product(name: "Simulation", package: "PatternBench"),  // SimDuration, SimInstant: virtual time
                .product(name: "Measurement", package: "PatternBench"),  // VariantOrigin
                .product(name: "Records", package: "PatternBench"),  // Observation
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // snippet: end
        // The Swift snippets of docs/your-own-variant.md that are not part of my-bench, compiled
        // here so that they cannot rot (scripts/check-doc-snippets.py checks the doc says the same).
        .executableTarget(
            name: "doc-snippets",
            dependencies: ["BenchSuite", "Caching", "Readiness", "Locking", "Lifecycle", "FanOut"].map {
                .product(name: $0, package: "PatternBench")
            },
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
