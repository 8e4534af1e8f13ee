import Foundation
import Measurement
import Simulation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one probe in a child process under a watchdog and says how it ended. The child is always
/// reaped: killed with SIGKILL when the watchdog fires, then waited for.
package struct ChildProbeHarness: Sendable {
    package enum Outcome: Sendable, Hashable {
        case completed
        /// Killed by this signal (a trap: SIGILL on x86-64, SIGTRAP on arm64).
        case trapped(Int32)
        case deadlocked
        case failed(Int32)
    }

    /// The command line of a child: the executable and its hidden role flag; the probe's
    /// arguments are appended.
    package var command: [String]
    package var watchdog: SimDuration
    package var clock: any MonotonicClock = SystemMonotonicClock()

    package init(command: [String], watchdog: SimDuration) {
        self.command = command
        self.watchdog = watchdog
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
                stderr: .descriptor(err.fileHandleForWriting.fileDescriptor)
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
        if killed { ended = child.killGroupAndReap() }
        let text = errors.text()
        // Killed by an interrupt (`ChildProcessRegistry`), not by its probe: no outcome.
        if ChildProcessRegistry.isStopping { throw HarnessError(message: "interrupted") }
        let pid = child.pid
        if killed { return (.deadlocked, text, pid) }
        switch ended! {
        case .signaled(let signal): return (.trapped(signal), text, pid)
        case .exited(let status): return (status == 0 ? .completed : .failed(status), text, pid)
        }
    }

    package struct HarnessError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}
