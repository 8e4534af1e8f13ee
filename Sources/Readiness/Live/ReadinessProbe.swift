import Foundation
import Measurement

/// The two re-entry probes of `reentrant-tasks`, each meant to run alone in a child process: it
/// either completes (exit 0), traps (killed by a signal) or hangs (the parent's watchdog kills it).
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
        let api = makeAPI()
        let ran = Counter()
        switch probe {
        case .reentry:
            api.runNowOrWhenAppIsReady {
                _ = api.isAppReady
                api.runNowOrWhenAppIsReady { ran.add() }
                ran.add()
            }
        case .crossThreadWait:
            api.runNowOrWhenAppIsReady {
                let answered = DispatchSemaphore(value: 0)
                Thread {
                    _ = api.isAppReady
                    answered.signal()
                }.start()
                answered.wait()
                ran.add()
            }
        }
        api.setAppIsReady()
        return ran.value == (probe == .reentry ? 2 : 1) ? 0 : 70
    }

    private final class Counter: @unchecked Sendable {
        // Protected by `lock`.
        private let lock = NSLock()
        private var count = 0
        func add() {
            lock.lock()
            count += 1
            lock.unlock()
        }
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }
}
