import Foundation
import Measurement

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One child process of a live run, started with `posix_spawnp` in its own process group (so a
/// terminal's Ctrl-C reaches only the harness, which then reaps it), output to a log file.
struct ChildProcess {
    let role: ProcessRole
    let pid: pid_t
    let logPath: String

    static func spawn(role: ProcessRole, command: [String], logPath: String) throws -> ChildProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for a in arguments { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, command[0], &actions, &attributes, arguments, environ)
        guard rc == 0 else {
            throw BenchFailure.unavailable("cannot start child '\(command[0])' for role \(role.rawValue): \(String(cString: strerror(rc)))")
        }
        return ChildProcess(role: role, pid: pid, logPath: logPath)
    }

    /// The exit status if the child has ended (and is now reaped), nil while it runs.
    func poll() -> ExitStatus? {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        guard r == pid else { return r < 0 ? .exited(127) : nil }
        return ExitStatus(raw: status)
    }

    /// Kills the child's whole process group (it leads one) and reaps the child.
    func killAndReap() {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

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
