import Foundation
import OptionalPackages
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// bench-clock's live child releases the `faketime` wrapper's two /dev/shm names as soon as it
/// runs (`FaketimeSharedNames`), so a live run killed with SIGKILL leaves none behind. Each such
/// wrapper used to leave `faketime_shm_<pid>` and `sem.faketime_sem_<pid>` until reboot (250 here),
/// and a later wrapper given that pid refused to start: one fresh-clone `swift test` failed on it.
/// The control: a bare wrapper killed the same way keeps its names (removed here after).
///
/// Swift Testing, side by side with the other waiting tests, the run and the control
/// each on a thread of its own (`onThread`).
@Suite(.requires(.faketime), .enabled(if: FileManager.default.fileExists(atPath: "/dev/shm"), "needs /dev/shm"))
struct FaketimeSharedNamesTests {
    @Test func aSIGKILLedLiveRunLeavesNoFaketimeName() async throws {
        async let run = onThread { try Self.killedRun() }
        async let bare = onThread { try Self.killedBareWrapper() }
        let (r, b) = try await (run, bare)
        #expect(r.namesWhileRunning.isEmpty, "the live child left wrapper \(r.wrapper)'s names in place: \(r.namesWhileRunning)")
        #expect(r.namesAfterKill.isEmpty, "left in /dev/shm by the SIGKILLed run: \(r.namesAfterKill)")
        #expect(b.count == 2, "control: a bare wrapper killed with SIGKILL must leave its 2 names, or this proves nothing: \(b)")
    }

    struct Run: Sendable {
        var wrapper: pid_t
        /// The wrapper's names 20 s after its child started at most (none once released).
        var namesWhileRunning: [String]
        var namesAfterKill: [String]
    }

    /// A live run, SIGKILLed once its child has released its wrapper's names (or 20 s after the
    /// child started); nothing it started outlives the call.
    static func killedRun() throws -> Run {
        let out = try ExecutableRunner.temporaryDirectory("faketime-names")
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = ["--mode", "live", "--scenario", "leap-second", "--live-duration", "60", "--no-read-cost", "--quiet"]
        let run = try RunningTool("bench-clock", arguments + ["--output", out.path], environment: [:])
        defer { run.killEverything() }
        let below = try run.waitForDescendant(containing: "--live-child")
        let wrapper = try #require(below.first { FaketimeNames.isWrapper($0) }, "no faketime wrapper below the run")
        let whileRunning = FaketimeNames.waitUntilReleased(below)
        #expect(ProcessTree.isAlive(wrapper), "the wrapper ended before the kill: its own cleanup would prove nothing")
        kill(run.pid, SIGKILL)
        run.waitForExit()
        _ = ProcessTree.stillAlive([wrapper], within: 10)
        return Run(wrapper: wrapper, namesWhileRunning: whileRunning, namesAfterKill: FaketimeNames.existing(wrapper))
    }

    /// `faketime -f +0 sleep 30`, SIGKILLed once its child runs: the names it leaves (then removed,
    /// with its child).
    static func killedBareWrapper() throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(FaketimeNames.wrapper))
        process.arguments = ["-f", "+0", "sleep", "30"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let wrapper = process.processIdentifier
        let child = try FaketimeNames.waitForChild(of: wrapper)
        defer { for path in FaketimeNames.paths(wrapper) { try? FileManager.default.removeItem(atPath: path) } }
        // The wrapper first: a SIGKILLed process runs nothing more, so its child's end is not
        // seen by it (were it, it would clean up).
        kill(wrapper, SIGKILL)
        kill(child, SIGKILL)
        process.waitUntilExit()
        return FaketimeNames.existing(wrapper)
    }
}

/// The `faketime` wrapper's names in /dev/shm, and finding it in the process tree.
enum FaketimeNames {
    /// The wrapper on the PATH.
    static let wrapper: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/faketime" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Where libfaketime 0.9.10's wrapper `pid` keeps its semaphore and its shared memory.
    static func paths(_ pid: pid_t) -> [String] { ["/dev/shm/faketime_shm_\(pid)", "/dev/shm/sem.faketime_sem_\(pid)"] }

    static func existing(_ pid: pid_t) -> [String] { paths(pid).filter { FileManager.default.fileExists(atPath: $0) } }

    /// A `faketime` process whose parent is not one: the wrapper, not its child between fork and
    /// exec (which has the wrapper's name until then, and never a child of its own).
    static func isWrapper(_ pid: pid_t) -> Bool {
        guard ProcessTree.name(pid) == "faketime", let parent = ProcessTree.parent(of: pid) else { return false }
        return ProcessTree.name(parent) != "faketime"
    }

    /// Polls (up to `seconds`) until no `faketime` wrapper among `pids` has its names in /dev/shm
    /// once its child runs (the wrapper makes them before it starts the child, which releases
    /// them); returns the names still there then. A test that SIGKILLs a live bench-clock run
    /// waits for this first, or the wrapper it kills leaves its names behind.
    @discardableResult
    static func waitUntilReleased(_ pids: Set<pid_t>, within seconds: Double = 20) -> [String] {
        let wrappers = pids.filter(isWrapper)
        for wrapper in wrappers { _ = try? waitForChild(of: wrapper) }
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = wrappers.flatMap(existing)
            if left.isEmpty || Date() > deadline { return left }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Polls (up to 60 s) for a child of `pid`.
    static func waitForChild(of pid: pid_t) throws -> pid_t {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ProcessTree.isAlive(pid) {
            if let child = ProcessTree.descendants(of: pid).first { return child }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw ExecutableRunner.NotBuilt(description: "faketime wrapper \(pid) started no child")
    }
}
