import Foundation
import Measurement
import Processes

/// A Debian package that some tests need and a fresh machine may lack (the README's `swift test`
/// must pass there), and the one way a test asks for it.
///
/// Missing, a test that needs it is skipped with one line that names the package to install.
/// Under CI (`CI` set, as GitHub Actions and `.ci/run` set it) the same absence is a failure
/// instead: CI installs every such package, so a skip there would mean a test that silently
/// stopped running. XCTest asks with `try require(.faketime)`, Swift Testing with the trait
/// `.requires(.faketime)` (module `OptionalPackages`); both go through `check(environment:)`.
public struct OptionalPackage: Sendable, CustomStringConvertible {
    /// The Debian package that provides it.
    public let debianPackage: String
    /// What the tests use from it, for the skip line ("the `faketime` wrapper").
    public let provides: String
    let probe: @Sendable () -> Bool

    public init(debianPackage: String, provides: String, isInstalled probe: @escaping @Sendable () -> Bool) {
        self.debianPackage = debianPackage
        self.provides = provides
        self.probe = probe
    }

    public var description: String { debianPackage }

    /// Whether it is on this machine, looked up now.
    public var isInstalled: Bool { probe() }

    /// libfaketime's `faketime` wrapper on PATH: bench-clock's live mode.
    public static let faketime = OptionalPackage(debianPackage: "faketime", provides: "the `faketime` wrapper on PATH") {
        SpawnedChild.lookUp("faketime") != nil
    }

    /// libjemalloc.so.2, found as bench-atomics' `--allocator jemalloc` finds it.
    public static let jemalloc = OptionalPackage(debianPackage: "libjemalloc-dev", provides: "libjemalloc.so.2") {
        AllocatorSwitch.locate(AllocatorSwitch.defaultLibrary, libraryPath: ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"])
            != nil
    }

    /// A C compiler on PATH, looked for as `TimerfdShim` looks: bench-clock's live mode compiles
    /// its timerfd shim with it.
    public static let cCompiler = OptionalPackage(debianPackage: "gcc", provides: "a C compiler (`cc`, `gcc` or `clang`) on PATH") {
        ["cc", "gcc", "clang"].contains { SpawnedChild.lookUp($0) != nil }
    }

    /// The one line a skipped test prints.
    public var skipMessage: String { "needs \(provides); install the Debian package `\(debianPackage)`" }

    /// The failure a missing package is under CI.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// True when the package is installed: the test runs. False when it is missing: the test is
    /// skipped. Throws `Missing` when it is missing under CI, where a skip is a failure.
    public func check(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        if isInstalled { return true }
        guard Self.isCI(environment) else { return false }
        throw Missing(description: "CI=\(environment["CI"] ?? ""): \(provides) is missing; install the Debian package `\(debianPackage)`")
    }

    /// Whether `environment` is a CI run: `CI` set to anything but empty, `0` or `false`.
    public static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.lowercased() else { return false }
        return !["", "0", "false"].contains(value)
    }
}
