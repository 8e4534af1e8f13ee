import Foundation
import Simulation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(command.dropFirst()) + arguments
        // A trap is expected: skip the Swift runtime's symbolicated backtrace (seconds per child).
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = clock.now() + watchdog
        var killed = false
        while process.isRunning {
            if clock.now() >= deadline {
                kill(process.processIdentifier, SIGKILL)
                killed = true
                break
            }
            clock.sleep(for: .milliseconds(5))
        }
        process.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let pid = process.processIdentifier
        if killed { return (.deadlocked, text, pid) }
        switch process.terminationReason {
        case .uncaughtSignal: return (.trapped(process.terminationStatus), text, pid)
        case .exit: return (process.terminationStatus == 0 ? .completed : .failed(process.terminationStatus), text, pid)
        @unknown default: return (.failed(process.terminationStatus), text, pid)
        }
    }

    package struct HarnessError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }
}
