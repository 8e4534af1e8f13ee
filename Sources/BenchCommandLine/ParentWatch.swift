import CLockShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes an isolated item's child process die with the run that started it, however the run
/// dies (a SIGKILL, a second Ctrl-C, a crash): no child outlives its parent at 100 % CPU.
///
/// On Linux the child asks the kernel for SIGKILL when its parent goes (`PR_SET_PDEATHSIG`), then
/// checks that the parent has not already gone in between. Elsewhere (Darwin: untested, no macOS
/// here) the parent holds the write end of a pipe, the child a thread blocked reading the other
/// end: when the parent dies the read returns end-of-file and the child kills its process group.
/// The parent's side also kills the child's process group on a timeout or an interrupt
/// (`IsolatedChildProcess`), which takes whatever the item started with it.
enum ParentWatch {
    /// The parent's process ID, in the child's environment.
    static let parentVariable = "PATTERNBENCH_ISOLATION_PARENT"
    /// The file descriptor of the pipe's read end, in the child's environment (not on Linux).
    static let pipeVariable = "PATTERNBENCH_ISOLATION_PIPE"
    /// The descriptor the read end is given in the child.
    static let childPipeDescriptor: Int32 = 3

    /// The parent's side: the child's extra environment, and the descriptor (if any) that must
    /// become the child's `childPipeDescriptor`.
    static func forChild() throws -> (environment: [String: String], pipe: Int32?) {
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

    /// The child's side, first thing in an isolated child: arm the watch. Exits at once when the
    /// parent is already gone.
    static func armInChild() {
        let environment = ProcessInfo.processInfo.environment
        guard let parent = environment[parentVariable].flatMap({ pid_t($0) }) else { return }
        #if os(Linux)
        _ = lks_set_parent_death_signal(SIGKILL)
        #else
        if let descriptor = environment[pipeVariable].flatMap({ Int32($0) }) {
            let thread = Thread {
                var byte: UInt8 = 0
                while true {
                    let n = read(descriptor, &byte, 1)
                    if n == 0 || (n < 0 && errno != EINTR) { break }
                }
                kill(0, SIGKILL)  // the child's own process group: the item and what it started
            }
            thread.start()
        }
        #endif
        // The parent died before the watch was armed: the child was re-parented already.
        if getppid() != parent { _exit(137) }
    }
}
