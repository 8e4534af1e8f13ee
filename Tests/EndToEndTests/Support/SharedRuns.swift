import Foundation
import Measurement
import XCTest

/// Runs made once per test process and handed to every test that needs them. Each
/// workload's default run is gated by the regression gate's XCTest layer and by the workload's own
/// baseline test: the same bit-identical rows, so running them twice bought nothing but time
/// (`swift test` within 180 s). A test gets a copy in its own folder, so what it writes there (gate.json, a
/// corrupted file) never reaches another test.
enum SharedRuns {
    /// The arguments of each workload's default run as the tests gate it: its default matrix
    /// unless named here (the workloads come from `WorkloadRegistry`, so a new one is run without
    /// editing this list).
    static let defaultArguments: [String: [String]] = [
        "clock": ["--no-read-cost"],
        "cache": ["--seeds", "1"],
        // Every operation and lock at 1 and 8 threads (8 oversubscribe 2 cores), briefly:
        // lost updates are exact whatever the timing.
        "atomics": [
            "--scenario", "increment,read-mostly,flag,transition,dictionary-update,array-append-drain,different-atomics",
            "--variant",
            "pthread-mutex,nslock,dispatch-queue,mutex,spinlock,pthread-mutex-adaptive,signal-global-lock,atomic,unsynchronized",
            "--threads", "1,8", "--cs-work", "0", "--duration", "0.05", "--warmup", "0.01", "--seeds", "1", "--probe-duration", "0",
        ],
    ]

    /// What the run printed and the folder it wrote, shared by every test of this process.
    struct Run {
        var result: ExecutableRunner.Result
        var folder: URL
    }

    /// `workload`'s default run (made on first use).
    static func run(defaultOf workload: String) throws -> Run {
        try run("bench-\(workload)", defaultArguments[workload] ?? [])
    }

    /// The run of `tool` with `arguments` (plus `--quiet --output`), made on first use; a failed
    /// run is not kept, so each test that needs it reports the failure itself.
    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let key = ([tool] + arguments).joined(separator: " ")
        return try store.withLock { runs in
            if let run = runs[key] { return run }
            let folder = root.appendingPathComponent("\(runs.count)-\(tool)")
            let result = try ExecutableRunner.run(tool, ["--quiet", "--output", folder.path] + arguments)
            let run = Run(result: result, folder: folder)
            if result.status == 0 { runs[key] = run }
            return run
        }
    }

    /// Copies the files of `workload`'s default run into `folder` (see `copy(_:into:)`).
    @discardableResult
    static func copy(
        defaultOf workload: String,
        into folder: URL,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws
        -> ExecutableRunner.Result
    {
        try copy(run(defaultOf: workload), into: folder, file: file, line: line)
    }

    /// Copies the files of `run` into `folder` (created if needed, other files kept, so several
    /// workloads can share one results folder) and returns what the run printed. Fails the calling
    /// test when the run did not exit 0.
    @discardableResult
    static func copy(_ run: Run, into folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> ExecutableRunner.Result {
        XCTAssertEqual(run.result.status, 0, "\(run.folder.lastPathComponent): \(run.result.stderr)", file: file, line: line)
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in (try? files.contentsOfDirectory(atPath: run.folder.path)) ?? [] {
            try files.copyItem(at: run.folder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return run.result
    }

    /// The folder of this process's runs, removed when the test process exits.
    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("patternbench-default-runs-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        atexit { try? FileManager.default.removeItem(at: SharedRuns.root) }
        return url
    }()

    private static let store = Locked<[String: Run]>([:])
}

/// A value behind a lock (XCTest may run a test class's methods on any thread).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
