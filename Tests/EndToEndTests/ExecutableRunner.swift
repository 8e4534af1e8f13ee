import Foundation
import XCTest

/// Runs a built `bench-*` executable the way a user would and captures what it says.
struct ExecutableRunner {
    struct Result {
        var status: Int32
        /// `.exit` for a normal exit, `.uncaughtSignal` for a trap or crash.
        var reason: Process.TerminationReason
        var stdout: String
        var stderr: String
    }

    /// The folder `swift build`/`swift test` put the products in: the test bundle's folder (on
    /// Linux the bundle URL is that folder already; on macOS it is the .xctest inside it).
    static var productsDirectory: URL {
        let url = Bundle(for: Marker.self).bundleURL
        return url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url
    }

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String
    }

    final class Marker {}

    /// Runs `tool` from the products folder (or from `directory`, e.g. `.build/release`).
    /// `environment` entries are set (an empty value removes the variable) on top of this process's.
    /// `signal` sends that signal to the process once `after` seconds have passed (an interrupted
    /// run, as a user's Ctrl-C or a CI runner's SIGTERM would do it).
    static func run(
        _ tool: String,
        _ arguments: [String],
        cwd: URL? = nil,
        directory: URL? = nil,
        environment: [String: String] = [:],
        signal: (number: Int32, after: Double)? = nil
    ) throws -> Result {
        let url = (directory ?? productsDirectory).appendingPathComponent(tool)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            // A failure, not a skip: a test that silently skips would pass without checking anything.
            throw NotBuilt(description: "\(url.path) is not built; `swift test` builds it as a dependency of EndToEndTests")
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let cwd { process.currentDirectoryURL = cwd }
        if !environment.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for (key, value) in environment { env[key] = value.isEmpty ? nil : value }
            process.environment = env
        }
        // stderr goes to a file and stdout to a pipe read to the end before waiting, so a chatty
        // child can never block on a full pipe.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        )
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        // Waited for through the termination handler: Foundation's `waitUntilExit` on Linux polls
        // the run loop in 50 ms steps, which added up to that much to each of the suite's
        // process runs.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if let signal {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + signal.after) { kill(pid, signal.number) }
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        try errHandle.close()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(
            status: process.terminationStatus,
            reason: process.terminationReason,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "patternbench-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
