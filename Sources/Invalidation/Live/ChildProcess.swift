import Foundation
import Measurement
import Processes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One child process of a live run, a `SpawnedChild` (its own process group, so a terminal's
/// Ctrl-C reaches only the harness, which then reaps it; the parent-death watch), output to a log
/// file.
struct ChildProcess {
    let role: ProcessRole
    let child: SpawnedChild
    let logPath: String
    var pid: pid_t { child.pid }

    static func spawn(role: ProcessRole, command: [String], logPath: String) throws -> ChildProcess {
        do {
            let child = try SpawnedChild.spawn(
                command[0],
                arguments: Array(command.dropFirst()),
                stdout: .file(logPath),
                stderr: .stdout
            )
            return ChildProcess(role: role, child: child, logPath: logPath)
        } catch let error as SpawnedChild.SpawnError {
            throw BenchFailure.unavailable(
                "cannot start child '\(command[0])' for role \(role.rawValue): \(String(cString: strerror(error.code)))"
            )
        }
    }

    /// The exit status if the child has ended (and is now reaped), nil while it runs.
    func poll() -> ExitStatus? {
        child.poll().map { ended in
            switch ended {
            case .exited(let code): .exited(code)
            case .signaled(let signal): .signaled(signal)
            }
        }
    }

    /// Kills the child's whole process group (it leads one) and reaps the child.
    func killAndReap() { child.killGroupAndReap() }

    /// The last lines of the child's log, for an error message.
    func logTail() -> String {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(2).joined(separator: " | ")
    }
}

enum ExitStatus: Equatable {
    case exited(Int32)
    case signaled(Int32)

    /// Decodes a `waitpid` status (the W* macros are not importable).
    init(raw: Int32) {
        let signal = raw & 0x7f
        self = signal == 0 ? .exited((raw >> 8) & 0xff) : .signaled(signal)
    }

    var description: String {
        switch self {
        case .exited(let c): "exited with status \(c)"
        case .signaled(let s): "killed by signal \(s)"
        }
    }
}
