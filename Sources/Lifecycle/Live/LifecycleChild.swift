import Foundation
import Measurement
import Processes

#if canImport(Glibc)
import Glibc
#endif

/// The live app: the same binary re-executed in a child role by `LiveKillHarness`.
///
/// `app` loads its state and saves version after version, writing `b <v>` to stdout before each
/// save and `a <v>` after it (the acknowledgement the user would see), until it is killed or its
/// parent is gone. `verify` is the relaunch: it reads the state and prints `ok <v>`, `none` or
/// `corrupt` (resetting a corrupt state so that the next run starts clean).
package enum LifecycleChild {
    /// The hidden first argument that selects a child role.
    package static let flag = "--lifecycle-child"

    /// Runs the child role when this process was started as one (and exits); returns otherwise.
    package static func runIfAsked(_ arguments: [String] = CommandLine.arguments) {
        guard arguments.count == 5, arguments[1] == flag else { return }
        exit(main(directory: arguments[2], durability: arguments[3], role: arguments[4]))
    }

    static func main(directory: String, durability: String, role: String) -> Int32 {
        ParentWatch.armInChild()
        do {
            guard let d = LifecyclePolicy.Durability(rawValue: durability) else {
                throw BenchFailure.usage("unknown durability '\(durability)'")
            }
            let store = try StateStores.make(d, directory: directory)
            switch role {
            case "verify":
                switch try store.load() {
                case .none: say("none")
                case .corrupt:
                    say("corrupt")
                    try store.reset()
                case .version(let v): say("ok \(v)")
                }
                return 0
            case "app":
                var version: Int64 = 0
                if case .version(let v) = try store.load() { version = v }
                _ = StateImage.bodyHash  // computed before "ready": saves then cost only their writes
                say("ready \(version)")
                let parent = getppid()
                for _ in 0..<1_000_000 {
                    if getppid() != parent { return 0 }  // the harness is gone: never outlive it
                    version += 1
                    say("b \(version)")
                    try store.save(version: version)
                    say("a \(version)")
                }
                return 0
            default: throw BenchFailure.usage("unknown child role '\(role)'")
            }
        } catch {
            FileHandle.standardError.write(Data("lifecycle child: \(error)\n".utf8))
            return 70
        }
    }

    /// One line to stdout with a single write(2): nothing is buffered in the process, so what the
    /// harness reads after a SIGKILL is everything the app said.
    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = Glibc.write(1, $0.baseAddress, $0.count) }
    }
}
