import Foundation
import Measurement

#if canImport(Glibc)
import Glibc
#endif

/// One child process of the live harness, its stdout on a pipe the harness reads.
final class ChildApp {
    let process: Process
    let output: FileHandle
    let errors: Pipe
    private var buffer: [UInt8] = []

    private init(process: Process, output: FileHandle, errors: Pipe) {
        self.process = process
        self.output = output
        self.errors = errors
    }

    var pid: Int32 { process.processIdentifier }

    static func start(_ command: [String]) throws -> ChildApp {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw BenchFailure.unavailable("cannot start the lifecycle app child '\(command[0])': \(error)")
        }
        return ChildApp(process: process, output: out.fileHandleForReading, errors: err)
    }

    /// The next line the child wrote, nil at end of output.
    func readLine() -> String? {
        while true {
            if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<i], as: UTF8.self)
                buffer.removeSubrange(...i)
                return line
            }
            let data = output.availableData
            if data.isEmpty { return nil }
            buffer += data
        }
    }

    /// Everything left on stdout (after the child ended).
    func readToEnd() -> String {
        let rest = output.readDataToEndOfFile()
        defer { buffer = [] }
        return String(decoding: buffer + [UInt8](rest), as: UTF8.self)
    }

    /// SIGKILL (the child may be stopped: SIGKILL ends a stopped process too), then reap.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func wait() { process.waitUntilExit() }

    func stderrTail() -> String {
        let text = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        return text.split(separator: "\n").suffix(2).joined(separator: " | ")
    }
}
