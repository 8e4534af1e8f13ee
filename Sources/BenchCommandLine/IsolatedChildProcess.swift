import Foundation
import Processes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One child process running an isolated item: a `SpawnedChild` (a process group of its own, the
/// parent-death watch, on the list an interrupt kills), with a watchdog on how long it may run.
struct IsolatedChildProcess {
    let child: SpawnedChild
    var pid: pid_t { child.pid }

    /// How a child's wait ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed after the timeout.
        case timedOut
        /// Killed because the run was interrupted.
        case stopped
    }

    /// Starts `executable` with `arguments` (and `name` as argv[0]: what its errors start with),
    /// stdin and stdout on /dev/null and stderr into the file at `stderrPath`.
    static func spawn(executable: String, name: String, arguments: [String], stderrPath: String) throws -> IsolatedChildProcess {
        IsolatedChildProcess(
            child: try SpawnedChild.spawn(executable, arguments: arguments, name: name, stderr: .file(stderrPath))
        )
    }

    /// Waits for the child to end; kills its group once `timeout` seconds have passed or as soon
    /// as `shouldStop` says so, then reaps it. Polls (1 ms, doubling to 20 ms) rather than block in
    /// `waitpid`, so that an interrupt is seen within 20 ms.
    func wait(timeout: Double, shouldStop: () -> Bool) -> Ending {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var pause: UInt32 = 1_000
        while true {
            if let ended = child.poll() {
                // Killed by the interrupt's handler (`ChildProcessRegistry`) before this thread saw it.
                if shouldStop() { return .stopped }
                switch ended {
                case .exited(let status): return .exited(status)
                case .signaled(let signal): return .signaled(signal)
                }
            }
            if shouldStop() {
                child.killGroupAndReap()
                return .stopped
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline {
                child.killGroupAndReap()
                return .timedOut
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }
}
