import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding and running helper programs (`faketime`, `cc`) without a shell.
package enum Executables {
    /// The first executable named `name` on `$PATH`.
    package static func find(_ name: String) -> String? { SpawnedChild.lookUp(name) }

    package struct Result {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        package var timedOut: Bool
    }

    /// Runs `executable` with `arguments` (a `SpawnedChild`: its own process group, the
    /// parent-death watch), waiting at most `timeout` seconds; then its process group is killed
    /// and `onTimeout` runs (to kill grandchildren the wrapper started in a group of their own).
    package static func run(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        timeout: Double = 60,
        onTimeout: () -> Void = {}
    ) -> Result {
        let out = Pipe(), err = Pipe()
        let child: SpawnedChild
        do {
            defer {
                try? out.fileHandleForWriting.close()
                try? err.fileHandleForWriting.close()
            }
            child = try SpawnedChild.spawn(
                executable,
                arguments: arguments,
                environment: environment,
                stdout: .descriptor(out.fileHandleForWriting.fileDescriptor),
                stderr: .descriptor(err.fileHandleForWriting.fileDescriptor)
            )
        } catch {
            return Result(status: 127, stdout: "", stderr: "\(error)", timedOut: false)
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
        var ended = child.poll()
        while ended == nil {
            if clock.now > deadline {
                timedOut = true
                child.killGroup()
                onTimeout()
                break
            }
            usleep(10_000)
            ended = child.poll()
        }
        let termination = ended ?? child.wait()
        // A grandchild that survived would keep the pipes open forever: do not wait for it.
        _ = group.wait(timeout: .now() + 5)
        let status: Int32
        switch termination {
        case .exited(let code): status = code
        case .signaled(let signal): status = signal
        }
        return Result(
            status: status,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            timedOut: timedOut
        )
    }
}
