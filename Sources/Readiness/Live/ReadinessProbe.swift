import Foundation

/// The two re-entry probes of `reentrant-tasks`, each meant to run alone in a child process: it
/// either completes (exit 0), traps (killed by a signal) or hangs (the parent's watchdog kills it).
package enum ReadinessProbe: String, CaseIterable, Sendable {
    /// A task, run by `setAppIsReady`, reads `isAppReady` and registers another task on the same thread.
    case reentry
    /// A task waits for another thread that reads `isAppReady`.
    case crossThreadWait = "cross-thread-wait"

    /// Which real implementation a variant's probe exercises.
    package static func implementation(for variant: ReadinessVariant) -> String {
        variant == .articleLightweight ? "article" : "flag-first"
    }

    /// The child's side: runs `probe` on `implementation` and returns its exit code. Called by the
    /// executable when it is started with its hidden role flag; never returns normally on a trap.
    package static func runChild(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2, let probe = ReadinessProbe(rawValue: arguments[0]),
            ["article", "flag-first"].contains(arguments[1])
        else {
            FileHandle.standardError.write(Data("readiness probe: expected <reentry|cross-thread-wait> <article|flag-first>\n".utf8))
            return 64
        }
        let api: any ReadinessAPI = arguments[1] == "article" ? LightweightAppReadiness() : FlagFirstReadiness()
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
