import CLockShim
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One child process running an isolated item: started with `posix_spawn` in a process group of
/// its own, so that killing the group also kills whatever the item started, and registered while
/// it runs, so that an interrupted run can kill every child at once.
///
/// Foundation's `Process` is not used: it neither starts a new process group nor lets the parent
/// hand the child a pipe for the parent-death watchdog (`ParentWatch`), and its termination
/// handler cannot be raced against an interrupt.
struct IsolatedChildProcess {
    let pid: pid_t

    /// How a child's wait ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed after the timeout.
        case timedOut
        /// Killed because the run was interrupted.
        case stopped
    }

    struct SpawnError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "posix_spawn: \(String(cString: strerror(code)))" }
    }

    /// Starts `executable` with `arguments` (and `name` as argv[0]: what its errors start with), stdin and stdout on /dev/null and stderr into the
    /// file at `stderrPath`, in a new process group, with what `ParentWatch` needs in its
    /// environment.
    static func spawn(executable: String, name: String, arguments: [String], stderrPath: String) throws -> IsolatedChildProcess {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (pgid = its pid); the parent's signal handlers and mask not inherited.
        var flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        #if canImport(Darwin)
        flags |= POSIX_SPAWN_CLOEXEC_DEFAULT  // only the descriptors the file actions set up
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #if os(Linux)
        // No other descriptor of the parent's: one inherited from whoever started the run (a
        // pipe a CI runner reads to its end, Foundation's exit-watch socket) would keep the
        // launcher waiting as long as the child lives.
        _ = lks_spawn_close_from(&actions, 3)
        #endif
        let watch = try ParentWatch.forChild()
        if let readEnd = watch.pipe { posix_spawn_file_actions_adddup2(&actions, readEnd, ParentWatch.childPipeDescriptor) }
        let environment = ProcessInfo.processInfo.environment.merging(watch.environment) { _, new in new }

        let argv = ([name] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for p in argv + envp { free(p) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], envp + [nil])
        guard rc == 0 else { throw SpawnError(code: rc) }
        let child = IsolatedChildProcess(pid: pid)
        ChildProcessRegistry.add(pid)
        return child
    }

    /// Waits for the child to end; kills its group once `timeout` seconds have passed or as soon
    /// as `shouldStop` says so, then reaps it. Polls (1 ms, doubling to 20 ms) rather than block in
    /// `waitpid`, so that an interrupt is seen within 20 ms.
    func wait(timeout: Double, shouldStop: () -> Bool) -> Ending {
        defer { ChildProcessRegistry.remove(pid) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var pause: UInt32 = 1_000
        while true {
            var status: Int32 = 0
            let rc = waitpid(pid, &status, WNOHANG)
            if rc == pid { return Self.ending(status) }
            if rc < 0, errno != EINTR { return .exited(-1) }
            if shouldStop() {
                killGroupAndReap()
                return .stopped
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                killGroupAndReap()
                return .timedOut
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// SIGKILL to the child's process group (the item and anything it started), then waits for it.
    func killGroupAndReap() {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// The wait status decoded (the WIFEXITED/WTERMSIG macros are not imported into Swift).
    static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}

/// The isolated children running now, so that an interrupted run can kill them all at once from
/// the thread that writes the results, whatever the worker threads that wait for them are doing.
package enum ChildProcessRegistry {
    private static let running = Mutex<Set<pid_t>>([])

    static func add(_ pid: pid_t) { running.withLock { _ = $0.insert(pid) } }
    static func remove(_ pid: pid_t) { running.withLock { _ = $0.remove(pid) } }

    /// SIGKILL to every running child's process group. The worker thread waiting for each child
    /// still reaps it.
    package static func killAll() {
        for pid in running.withLock({ $0 }) {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }
}
