import CLockShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One child process PatternBench starts: an isolated item, a live harness's worker, a probe, the
/// `faketime` wrapper. The one way children are started, so that every child gets the same
/// protection: a process group of its own (the parent kills the group, which takes whatever the
/// child started), the parent-death watch (`ParentWatch`), a place on the list an interrupt kills
/// at once (`ChildProcessRegistry`), and none of the parent's descriptors but the ones given.
///
/// Foundation's `Process` is not used: it arms no parent-death signal, cannot hand the child the
/// watch's pipe, and starts the child on whatever thread calls it (a parent-death signal fires
/// when the *thread* that forked the child ends; `lks_spawn` forks on one thread that never ends).
package struct SpawnedChild: Sendable {
    package let pid: pid_t

    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable {
        case null
        /// A file, created or truncated.
        case file(String)
        /// A descriptor of the parent's (a pipe's end); the caller still owns and closes it.
        case descriptor(Int32)
        /// stderr only: wherever stdout goes.
        case stdout
    }

    /// How a child ended.
    package enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        /// Decodes a `waitpid` status (the W* macros are not importable).
        package init(status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }

        package var description: String {
            switch self {
            case .exited(let c): "exited with status \(c)"
            case .signaled(let s): "killed by signal \(s)"
            }
        }
    }

    package struct SpawnError: Error, CustomStringConvertible, Sendable {
        package var executable: String
        package var code: Int32
        /// The run is being interrupted: no child starts any more.
        package var isStopped: Bool { code == ECANCELED }
        package var description: String {
            isStopped ? "not started: the run is being interrupted" : "cannot start \(executable): \(String(cString: strerror(code)))"
        }
    }

    /// Starts `executable` (a path, or a name looked up on $PATH) with `arguments`, argv[0]
    /// `name` (default: the executable), `environment` (default: this process's) plus the watch's.
    /// `memoryLimit`: the child's address-space ceiling in bytes (RLIMIT_AS; nil: this process's).
    /// `forkOnCallingThread` is for tests only (the control of the one spawning thread).
    package static func spawn(
        _ executable: String,
        arguments: [String],
        name: String? = nil,
        environment: [String: String]? = nil,
        stdin: Stream = .null,
        stdout: Stream = .null,
        stderr: Stream = .null,
        memoryLimit: Int? = nil,
        forkOnCallingThread: Bool = false
    ) throws -> SpawnedChild {
        let path = executable.contains("/") ? executable : (lookUp(executable) ?? executable)
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        func descriptor(_ stream: Stream, _ flags: Int32) throws -> Int32 {
            switch stream {
            case .descriptor(let fd): return fd
            case .stdout: return -1  // resolved below
            case .null, .file:
                let target: String
                if case .file(let p) = stream { target = p } else { target = "/dev/null" }
                let fd = open(target, flags | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw SpawnError(executable: target, code: errno) }
                opened.append(fd)
                return fd
            }
        }
        let input = try descriptor(stdin, O_RDONLY)
        let output = try descriptor(stdout, O_WRONLY | O_CREAT | O_TRUNC)
        var errors = try descriptor(stderr, O_WRONLY | O_CREAT | O_TRUNC)
        if case .stdout = stderr { errors = output }
        var fds = [input, output, errors]
        let watch = try ParentWatch.forChild()
        if let readEnd = watch.pipe { fds.append(readEnd) }
        let merged = (environment ?? ProcessInfo.processInfo.environment).merging(watch.environment) { _, new in new }

        let argv = ([name ?? executable] + arguments).map { strdup($0) }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") }
        defer { for p in argv + envp { free(p) } }
        let pid: pid_t = try path.withCString { cPath in
            try (argv + [nil]).withUnsafeBufferPointer { cArgv in
                try (envp + [nil]).withUnsafeBufferPointer { cEnvp in
                    try fds.withUnsafeBufferPointer { cFds in
                        var request = lks_spawn_request()
                        request.path = cPath
                        request.argv = cArgv.baseAddress.map { UnsafePointer($0) }
                        request.envp = cEnvp.baseAddress.map { UnsafePointer($0) }
                        request.fds = cFds.baseAddress
                        request.fd_count = Int32(fds.count)
                        request.death_signal = ParentWatch.isDisabled ? 0 : SIGKILL
                        request.parent = getpid()
                        request.memory_limit = Int64(memoryLimit ?? 0)
                        let rc = forkOnCallingThread ? lks_spawn_on_calling_thread(&request) : lks_spawn(&request)
                        guard rc == 0 else { throw SpawnError(executable: executable, code: rc) }
                        return request.pid
                    }
                }
            }
        }
        return SpawnedChild(pid: pid)
    }

    /// How the child ended if it has (it is then reaped), nil while it runs.
    package func poll() -> Termination? {
        var status: Int32 = 0
        let rc = waitpid(pid, &status, WNOHANG)
        if rc == pid {
            lks_children_remove(pid)
            return Termination(status: status)
        }
        if rc < 0, errno != EINTR {
            lks_children_remove(pid)
            return .exited(127)  // not ours to wait for any more
        }
        return nil
    }

    /// Waits for the child to end and reaps it.
    @discardableResult
    package func wait() -> Termination {
        var status: Int32 = 0
        while true {
            let rc = waitpid(pid, &status, 0)
            if rc == pid { break }
            if rc < 0, errno != EINTR {
                lks_children_remove(pid)
                return .exited(127)
            }
        }
        lks_children_remove(pid)
        return Termination(status: status)
    }

    /// SIGKILL to the child's process group (the child and anything it started).
    package func killGroup() {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// SIGKILL to the child's process group, then waits for the child.
    @discardableResult
    package func killGroupAndReap() -> Termination {
        killGroup()
        return wait()
    }

    /// The first executable named `name` on $PATH.
    package static func lookUp(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}

/// The children running now (every `SpawnedChild` until it is reaped), so that an interrupt can
/// kill them all at once, from its signal handler, whatever the threads that wait for them do.
package enum ChildProcessRegistry {
    /// SIGKILL to every running child's process group; no child starts after this. The threads
    /// waiting for each child still reap it. Async-signal-safe.
    package static func killAll() { lks_children_kill_all() }

    /// Whether `killAll` has run: a harness that sees its child die then knows why.
    package static var isStopping: Bool { lks_children_stopping() != 0 }
}
