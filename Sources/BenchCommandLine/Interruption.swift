import Foundation
import Processes
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM, turned into a flag the driver polls between items.
///
/// The first signal asks the run to stop and write what finished, marked incomplete: no new item
/// starts, every child process is killed from the handler itself (`ChildProcessRegistry`: the
/// isolated items' and the live harnesses' alike, so a live item waiting for its children ends at
/// once and is dropped), virtual-time items in flight are abandoned (`ItemScheduler`); a second
/// signal ends the process at once (exit 130/143), and the children die with it (`ParentWatch`).
package enum Interruption {
    /// The signal received, 0 while none.
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers. Idempotent.
    package static func install() {
        for sig in [SIGINT, SIGTERM] {
            _ = systemSignal(sig) { number in
                let (exchanged, _) = Interruption.received.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent)
                ChildProcessRegistry.killAll()
                if !exchanged { _exit(128 + number) }
            }
        }
    }

    /// The signal that asked the run to stop, if any.
    package static var pending: Int32? {
        let value = received.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// The conventional exit status for a run stopped by `signal`: 130 for SIGINT, 143 for SIGTERM.
    package static func exitCode(for signal: Int32) -> Int32 { 128 + signal }

    package static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}

#if canImport(Glibc)
private let systemSignal = Glibc.signal
#elseif canImport(Darwin)
private let systemSignal = Darwin.signal
#endif
