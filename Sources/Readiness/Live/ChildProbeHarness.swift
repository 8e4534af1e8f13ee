import Foundation
import Processes
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one probe in a child process under a watchdog and says how it ended. The child is always
/// reaped: killed with SIGKILL when the watchdog fires, then waited for.
///
/// The child runs under a memory ceiling (`memoryLimit`, RLIMIT_AS): a variant that allocates
/// without bound fails an allocation within a second instead of paging the shared machine until
/// the watchdog fires, and is reported as out of memory, not as the deadlock or trap it looks like.
package struct ChildProbeHarness: Sendable {
    package enum Outcome: Sendable, Hashable {
        case completed
        /// Killed by this signal (a trap: SIGILL on x86-64, SIGTRAP on arm64).
        case trapped(Int32)
        case deadlocked
        case failed(Int32)
        /// Ran out of memory: said so on stderr, was killed by a SIGKILL the harness did not send
        /// (the kernel's OOM killer), or hung with its address space at the ceiling.
        case outOfMemory
    }

    /// The default ceiling: far above what a probe needs (a Swift child with its threads reserves
    /// under 200 MiB), far below what the machines it runs on have.
    package static let defaultMemoryLimit = 1 << 30

    /// The command line of a child: the executable and its hidden role flag; the probe's
    /// arguments are appended.
    package var command: [String]
    package var watchdog: SimDuration
    package var clock: any MonotonicClock = SystemMonotonicClock()
    /// The child's address-space ceiling in bytes (nil: none).
    package var memoryLimit: Int?

    package init(command: [String], watchdog: SimDuration, memoryLimit: Int? = defaultMemoryLimit) {
        self.command = command
        self.watchdog = watchdog
        self.memoryLimit = memoryLimit
    }

    /// Runs the child with `arguments` appended; returns how it ended, what it wrote on stderr and
    /// its (already reaped) process id.
    package func run(_ arguments: [String]) throws -> (outcome: Outcome, stderr: String, pid: Int32) {
        guard let executable = command.first else { throw HarnessError(message: "no child command") }
        // A trap is expected: skip the Swift runtime's symbolicated backtrace (seconds per child).
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let err = Pipe()
        let child: SpawnedChild
        do {
            defer { try? err.fileHandleForWriting.close() }
            child = try SpawnedChild.spawn(
                executable,
                arguments: Array(command.dropFirst()) + arguments,
                environment: environment,
                stderr: .descriptor(err.fileHandleForWriting.fileDescriptor),
                memoryLimit: memoryLimit
            )
        } catch { throw HarnessError(message: "\(error)") }
        let errors = PipeTail(err.fileHandleForReading)
        let deadline = clock.now() + watchdog
        var ended: SpawnedChild.Termination?
        while ended == nil {
            ended = child.poll()
            if ended == nil, clock.now() >= deadline { break }
            if ended == nil { clock.sleep(for: .milliseconds(5)) }
        }
        let killed = ended == nil
        // Read before the kill: a child that hangs with its address space at the ceiling is one
        // whose allocation failed (a thread it could not start, a wait for it), not a deadlock.
        let peak = killed ? Self.peakAddressSpace(of: child.pid) : nil
        if killed { ended = child.killGroupAndReap() }
        let text = errors.text()
        // Killed by an interrupt (`ChildProcessRegistry`), not by its probe: no outcome.
        if ChildProcessRegistry.isStopping { throw HarnessError(message: "interrupted") }
        let pid = child.pid
        return (Self.outcome(ended!, killedByWatchdog: killed, peak: peak, limit: memoryLimit, stderr: text), text, pid)
    }

    /// How a child ended, from its termination, whether the watchdog killed it, its peak address
    /// space then (bytes) and its stderr. Out of memory is checked first: a failed allocation ends
    /// a Swift child with a trap, and a thread that could not start hangs the thread waiting for it.
    static func outcome(
        _ ended: SpawnedChild.Termination,
        killedByWatchdog: Bool,
        peak: Int?,
        limit: Int?,
        stderr: String
    )
        -> Outcome
    {
        if killedByWatchdog {
            // Within 64 MiB of the ceiling: the next mapping (a thread's 8 MiB stack) did not fit.
            if let peak, let limit, peak >= limit - (64 << 20) { return .outOfMemory }
            return .deadlocked
        }
        if reportsAllocationFailure(stderr) { return .outOfMemory }
        switch ended {
        case .signaled(SIGKILL): return .outOfMemory  // nobody else here sends a probe SIGKILL
        case .signaled(let signal): return .trapped(signal)
        case .exited(let status): return status == 0 ? .completed : .failed(status)
        }
    }

    /// The messages a failed allocation leaves on stderr: the Swift runtime's, the C++ runtime's,
    /// glibc's `strerror(ENOMEM)`, gnulib's `xalloc_die`, Python's.
    static let allocationFailureMessages = [
        "Could not allocate memory", "could not allocate memory", "Cannot allocate memory", "memory exhausted",
        "std::bad_alloc", "MemoryError", "out of memory",
    ]

    static func reportsAllocationFailure(_ stderr: String) -> Bool {
        allocationFailureMessages.contains { stderr.contains($0) }
    }

    /// The peak virtual size of `pid` (`VmPeak` in /proc/<pid>/status) in bytes; nil where unknown.
    static func peakAddressSpace(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmPeak:") }) else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }

    package struct HarnessError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}
