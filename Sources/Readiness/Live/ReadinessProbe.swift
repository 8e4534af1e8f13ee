import Foundation
import Measurement
import Processes

/// The two re-entry probes of `reentrant-tasks`, each meant to run alone in a child process: it
/// either completes (exit 0), traps (killed by a signal) or hangs (the parent's watchdog kills it)
/// — the findings the scenario counts — or completes having broken `ReadinessContract` (a task run
/// twice, never, or off the thread that called `setAppIsReady`): exit 70 with the violation on
/// stderr, and the item fails rather than counting it.
package enum ReadinessProbe: String, CaseIterable, Sendable {
    /// A task, run by `setAppIsReady`, reads `isAppReady` and registers another task on the same thread.
    case reentry
    /// A task waits for another thread that reads `isAppReady`.
    case crossThreadWait = "cross-thread-wait"

    /// The child's side: runs `probe` on the live form of the variant named by the second argument,
    /// looked up in `variants` (the executable's own registry, so a user's executable finds its
    /// own variants), and returns its exit code. Called by the executable when it is started with
    /// its hidden role flag; never returns normally on a trap.
    package static func runChild(_ arguments: [String], variants: VariantRegistry<ReadinessVariant>) -> Int32 {
        ParentWatch.armInChild()
        let known = variants.variants.filter(\.hasLiveForm).map(\.name)
        guard arguments.count == 2, let probe = ReadinessProbe(rawValue: arguments[0]),
            let makeAPI = variants.named(arguments[1])?.makeAPI
        else {
            FileHandle.standardError.write(
                Data("readiness probe: expected <reentry|cross-thread-wait> <\(known.joined(separator: "|"))>\n".utf8)
            )
            return 64
        }
        guard let violation = probe.run(on: makeAPI()) else { return 0 }
        let json = (try? JSONEncoder().encode(violation)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        FileHandle.standardError.write(Data((violationPrefix + json + "\n").utf8))
        return 70
    }

    /// Runs the probe on `api` from the calling thread (a sync block's main thread) and returns
    /// the rule it broke, if it ran to the end; a trap or a hang never returns.
    package func run(on api: any ReadinessAPI) -> ContractViolation? {
        let log = TaskLog()
        switch self {
        case .reentry:
            api.runNowOrWhenAppIsReady {
                _ = api.isAppReady
                api.runNowOrWhenAppIsReady { log.ran(1) }
                log.ran(0)
            }
        case .crossThreadWait:
            api.runNowOrWhenAppIsReady {
                let answered = DispatchSemaphore(value: 0)
                Thread {
                    _ = api.isAppReady
                    answered.signal()
                }.start()
                answered.wait()
                log.ran(0)
            }
        }
        api.setAppIsReady()
        return log.violation(of: self)
    }

    /// What starts the line on which a child reports the contract rule its variant broke (the
    /// violation as JSON, so it reaches the parent whole).
    static let violationPrefix = "contract-violation: "

    /// The broken rule a child reported on `stderr`, if it reported one.
    package static func violation(reportedOn stderr: String) -> ContractViolation? {
        stderr.split(separator: "\n").lazy.filter { $0.hasPrefix(violationPrefix) }
            .compactMap { try? JSONDecoder().decode(ContractViolation.self, from: Data($0.dropFirst(violationPrefix.count).utf8)) }
            .first
    }

    /// The tasks a probe registers, as a failure line names them.
    var tasks: [String] {
        switch self {
        case .reentry: ["task 1 (registered before ready)", "task 2 (registered by task 1 as it ran)"]
        case .crossThreadWait: ["task 1 (registered before ready, waits for another thread reading isAppReady)"]
        }
    }

    /// Every start of a probe's tasks, in order, with whether it ran on the thread that called
    /// `setAppIsReady` (the probe's main thread, where Signal's sync blocks run).
    private final class TaskLog: @unchecked Sendable {
        // Protected by `lock`.
        private let lock = NSLock()
        private var starts: [(task: Int, onCaller: Bool)] = []
        private let caller = pthread_self()

        func ran(_ task: Int) {
            let onCaller = pthread_equal(pthread_self(), caller) != 0
            lock.withLock { starts.append((task, onCaller)) }
        }

        /// The first broken rule of `ReadinessContract`, read once `setAppIsReady` has returned.
        func violation(of probe: ReadinessProbe) -> ContractViolation? {
            var check = ContractCheck()
            var count = [Int](repeating: 0, count: probe.tasks.count)
            for start in lock.withLock({ starts }) {
                count[start.task] += 1
                let name = "\(probe.rawValue) probe: \(probe.tasks[start.task])"
                check.require(count[start.task] == 1, ReadinessContract.startsEveryBlockOnce, at: "\(name) started again")
                check.require(
                    start.onCaller,
                    ReadinessContract.runsOnItsThread,
                    at: "\(name) ran off the thread that called setAppIsReady (a sync block's main thread)"
                )
            }
            if let lost = count.firstIndex(of: 0) {
                check.require(
                    false,
                    ReadinessContract.startsEveryBlockOnce,
                    at: "\(probe.rawValue) probe: \(probe.tasks[lost]) never started before setAppIsReady returned"
                )
            }
            return check.first
        }
    }
}
