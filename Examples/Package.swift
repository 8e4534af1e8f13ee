// swift-tools-version: 6.1
// A team's own benchmark package: its variants, PatternBench's scenarios. Depends on PatternBench
// by path here (CI builds it from a clean clone); in your package use its URL and a version.
import PackageDescription

let package = Package(
    name: "MyBench",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` fixes the identity whatever folder the clone is in.
        .package(name: "PatternBench", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "my-bench",
            dependencies: ["BenchSuite", "Throttling", "Caching", "Readiness", "Locking", "Measurement", "Simulation"].map { .product(name: $0, package: "PatternBench") },
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
