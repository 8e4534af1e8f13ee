import Foundation
import Testing

/// A run killed with SIGKILL cannot remove its isolated items' folders; the next run of any tool
/// (here another executable, which has no isolated item at all) sweeps them, and leaves a live
/// run's alone.
///
/// Swift Testing, like `UserPackageFaultTests` whose `Started` it uses: the killed run waits
/// for its hung item's child first.
@Suite struct ItemFolderSweepTests {
    @Test func theNextRunSweepsTheFoldersOfASIGKILLedRun() async throws {
        let tmp = try ExecutableRunner.temporaryDirectory("sweep-tmp")
        let out = try ExecutableRunner.temporaryDirectory("sweep-out")
        defer { UserPackageFaultTests.remove(tmp, out) }
        let environment = ["TMPDIR": tmp.path]
        func itemFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).filter { $0.hasPrefix("patternbench-item-") }
        }
        // A live run's folder (this test process is alive): the sweep must keep it.
        let live = tmp.appendingPathComponent("patternbench-item-\(getpid())-0-live")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)

        let killed = try await onThread {
            let run = try UserPackageFaultTests.Started(
                UserPackageFaultTests.faultyBench(),
                [
                    "throttle", "--quick", "--scenario", "steady", "--variant", "spins", "--item-timeout", "600", "--quiet", "--output",
                    out.path,
                ],
                environment: environment
            )
            let children = try run.waitForChildren()
            kill(run.pid, SIGKILL)
            run.waitForExit(upTo: 30)
            _ = UserPackageFaultTests.gone(children, within: 10)
            return run.wait()
        }
        #expect(killed.status == SIGKILL)
        // The control: SIGKILL left the hung item's folder behind.
        let left = itemFolders().filter { !$0.hasPrefix("patternbench-item-\(getpid())-") }
        #expect(left.count == 1, "\(itemFolders())")

        let next = try await onThread {
            try ExecutableRunner.run("bench-cache", ["--list"], environment: environment)
        }
        #expect(next.status == 0, "\(next.stderr)")
        #expect(itemFolders() == [live.lastPathComponent], "the dead run's folder is swept, the live one's kept")
    }
}
