import Foundation

/// Finding and running helper programs (`faketime`, `cc`) without a shell.
package enum Executables {
    /// The first executable named `name` on `$PATH`.
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    package struct Result {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        package var timedOut: Bool
    }

    /// Runs `executable` with `arguments`, waiting at most `timeout` seconds; then it is killed and
    /// `onTimeout` runs (to kill grandchildren the wrapper started, which hold the pipes open).
    package static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        timeout: Double = 60,
        onTimeout: () -> Void = {}
    ) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            return Result(status: 127, stdout: "", stderr: "cannot start \(executable): \(error.localizedDescription)", timedOut: false)
        }
        // Drain both pipes on other threads so a chatty child cannot block on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        // The deadline is on the monotonic clock: this harness practises what it measures.
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int64(timeout * 1000))
        var timedOut = false
        while process.isRunning {
            if clock.now > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                onTimeout()
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        // A grandchild that survived would keep the pipes open forever: do not wait for it.
        _ = group.wait(timeout: .now() + 5)
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            timedOut: timedOut
        )
    }
}
