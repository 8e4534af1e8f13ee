import Foundation
import Measurement
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// One child process of the live harness (a `SpawnedChild`: its own process group, the
/// parent-death watch), its stdout on a pipe the harness reads.
final class ChildApp {
    let child: SpawnedChild
    let output: FileHandle
    /// stderr, drained as the child writes it (a child writing more than a pipe holds would block).
    let errors: PipeTail
    private var buffer: [UInt8] = []

    private init(child: SpawnedChild, output: FileHandle, errors: FileHandle) {
        self.child = child
        self.output = output
        self.errors = PipeTail(errors)
    }

    var pid: Int32 { child.pid }

    static func start(_ command: [String]) throws -> ChildApp {
        let out = Pipe()
        let err = Pipe()
        defer {
            // The child has its copies; the parent's write ends closed, so end of output is seen.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
        }
        do {
            let child = try SpawnedChild.spawn(
                command[0],
                arguments: Array(command.dropFirst()),
                stdout: .descriptor(out.fileHandleForWriting.fileDescriptor),
                stderr: .descriptor(err.fileHandleForWriting.fileDescriptor)
            )
            return ChildApp(child: child, output: out.fileHandleForReading, errors: err.fileHandleForReading)
        } catch {
            throw BenchFailure.unavailable("cannot start the lifecycle app child '\(command[0])': \(error)")
        }
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

    /// SIGKILL to its group (the child may be stopped: SIGKILL ends a stopped process too), then
    /// reap.
    func kill() { child.killGroupAndReap() }

    func wait() { child.wait() }

    /// The last two lines the child wrote on stderr (waiting a moment for a child that is ending).
    func stderrTail() -> String {
        let text = errors.text(waitingAtMost: 0.5)
        return text.split(separator: "\n").suffix(2).joined(separator: " | ")
    }
}
