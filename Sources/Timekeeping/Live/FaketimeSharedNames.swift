import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `faketime` wrapper's two named objects, a semaphore and a shared-memory segment named after
/// the wrapper's pid, released by the live child as soon as it runs.
///
/// The wrapper creates them, hands their names to libfaketime in its child (`FAKETIME_SHARED`:
/// "<semaphore> <shared memory>") and unlinks them when its child exits. A wrapper killed with
/// SIGKILL — a killed run's, through the parent-death signal or its process group — never does,
/// and the names stay in /dev/shm until reboot (250 on this machine after a few days of tests); a
/// later wrapper given the same pid refuses to start (`LiveHarness.wrapperRetries`). A name that is
/// unlinked stays usable by whoever has it open, as a removed file does, and libfaketime opened
/// both when this process started: so the child unlinks them at once, and nothing is left however
/// the wrapper ends. The wrapper's own unlink at the end then fails and says so on stderr
/// (`isCleanupNoise`), which the harness leaves out of its messages.
enum FaketimeSharedNames {
    /// The variable the wrapper names them in.
    static let variable = "FAKETIME_SHARED"

    /// Unlinks the names `FAKETIME_SHARED` gives; how many were unlinked (0 without the variable).
    @discardableResult
    static func release(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        guard let shared = environment[variable] else { return 0 }
        let names = shared.split(separator: " ").map(String.init)
        guard names.count == 2 else { return 0 }
        // libfaketime opens them on its first clock read, if it has not at load: make sure it has.
        _ = time(nil)
        return (sem_unlink(names[0]) == 0 ? 1 : 0) + (shm_unlink(names[1]) == 0 ? 1 : 0)
    }

    /// Whether a stderr line is the wrapper's complaint that the names were already gone.
    static func isCleanupNoise(_ line: Substring) -> Bool {
        line.hasPrefix("faketime: sem_unlink:") || line.hasPrefix("faketime: shm_unlink:")
    }
}
