// swift-tools-version: 6.1
// A stranger's benchmark package whose variants misbehave on purpose: it depends on this checkout
// by path, as a user's package would, and registers a throttler that traps, one that hangs and a
// cache whose `get` traps. Tests/EndToEndTests/UserPackageFaultTests.swift builds it and checks
// that each fault costs only its own items (trap, hang, SIGTERM, SIGKILL of the parent).
import PackageDescription

let package = Package(
    name: "FaultyVariants",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "PatternBench", path: "../../..")
    ],
    targets: [
        .executableTarget(
            name: "faulty-bench",
            dependencies: ["BenchSuite", "Throttling", "Caching", "Simulation"].map { .product(name: $0, package: "PatternBench") },
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
