import CLockShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes every child process PatternBench starts die with the run that started it, however the
/// run dies (a SIGKILL, a second Ctrl-C, a crash): no child outlives its parent at 100 % CPU,
/// deadlocked, or stopped.
///
/// On Linux `SpawnedChild` arms the kernel's parent-death signal (`PR_SET_PDEATHSIG`, SIGKILL)
/// between fork and exec and checks the parent has not already gone; a child running
/// PatternBench's own code arms it again first thing (`armInChild`), which also covers a child
/// started through a wrapper (bench-clock's under `faketime`): it then dies with the wrapper, the
/// wrapper with the run. Elsewhere (Darwin: untested, no macOS here) the parent holds the write end
/// of a pipe, the child a thread blocked reading the other end: when the parent dies the read
/// returns end-of-file and the child kills its process group. The parent also kills each child's
/// process group on an interrupt and at exit (`ChildProcessRegistry`), which takes whatever the
/// child started with it.
package enum ParentWatch {
    /// The parent's process ID, in the child's environment.
    static let parentVariable = "PATTERNBENCH_PARENT_PID"
    /// The file descriptor of the pipe's read end, in the child's environment (not on Linux).
    static let pipeVariable = "PATTERNBENCH_PARENT_PIPE"
    /// The descriptor the read end is given in the child.
    static let childPipeDescriptor: Int32 = 3
    /// For tests only: "1" in the run's environment starts its children without the watch (no
    /// parent-death signal, no pipe, no re-check), the control that shows the watch is what ends
    /// them.
    package static let disableVariable = "PATTERNBENCH_NO_PARENT_WATCH"
    /// For tests only: "1" makes a child block for good right after arming its watch, as a child
    /// stuck in a system call would (one that polls for its parent would otherwise notice).
    package static let stallVariable = "PATTERNBENCH_TEST_CHILD_STALL"

    /// Whether the watch is switched off (tests only).
    static var isDisabled: Bool { ProcessInfo.processInfo.environment[disableVariable] == "1" }

    /// The parent's side: the child's extra environment, and the descriptor (if any) that must
    /// become the child's `childPipeDescriptor`.
    static func forChild() throws -> (environment: [String: String], pipe: Int32?) {
        if isDisabled { return ([:], nil) }
        let environment = [parentVariable: String(getpid())]
        #if os(Linux)
        return (environment, nil)
        #else
        return (environment.merging([pipeVariable: String(childPipeDescriptor)]) { a, _ in a }, try pipeReadEnd.get())
        #endif
    }

    #if !os(Linux)
    /// One pipe for the process's lifetime: the write end is never written and never closed, so
    /// only the parent's death closes it. Both ends close-on-exec (the child gets a dup2 copy).
    private static let pipeReadEnd: Result<Int32, any Error> = Result {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw CocoaError(.fileWriteUnknown) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends[0]
    }
    #endif

    /// The child's side, first thing in a child running PatternBench's code: arm the watch. Exits
    /// at once when the parent that started the chain is already gone.
    package static func armInChild() {
        let environment = ProcessInfo.processInfo.environment
        if let parent = environment[parentVariable].flatMap({ pid_t($0) }), !isDisabled {
            #if os(Linux)
            // SIGKILL when the direct parent dies: the run itself, or a wrapper between them.
            _ = lks_set_parent_death_signal(SIGKILL)
            // Gone before the signal was armed: the child was re-parented already.
            if !isAncestor(parent) { _exit(137) }
            #else
            if let descriptor = environment[pipeVariable].flatMap({ Int32($0) }) {
                let thread = Thread {
                    var byte: UInt8 = 0
                    while true {
                        let n = read(descriptor, &byte, 1)
                        if n == 0 || (n < 0 && errno != EINTR) { break }
                    }
                    kill(0, SIGKILL)  // the child's own process group: the child and what it started
                }
                thread.start()
            }
            if getppid() != parent { _exit(137) }
            #endif
        }
        if environment[stallVariable] == "1" {
            while true { sleep(3600) }
        }
    }

    #if os(Linux)
    /// Whether `pid` is this process's parent or an ancestor a few generations up (a wrapper
    /// such as `faketime` stands between), read from /proc.
    static func isAncestor(_ pid: pid_t) -> Bool {
        var current = getppid()
        for _ in 0..<4 {
            if current == pid { return true }
            if current <= 1 { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After the command's closing parenthesis: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { return false }
            current = parent
        }
        return false
    }
    #endif
}
