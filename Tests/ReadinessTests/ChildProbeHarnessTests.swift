import Foundation
import Processes
import Simulation
import XCTest

@testable import Readiness

/// The harness tells a completed child from a trapped, a hung and a failed one, and leaves no
/// child behind (a zombie would still answer `kill(pid, 0)`).
final class ChildProbeHarnessTests: XCTestCase {
    /// `sh -c SCRIPT` with the probe's arguments appended (they become $0 and $1, unused).
    func harness(
        _ script: String,
        watchdog: SimDuration = .seconds(5),
        memoryLimit: Int? = ChildProbeHarness.defaultMemoryLimit
    )
        -> ChildProbeHarness
    {
        ChildProbeHarness(command: ["/bin/sh", "-c", script], watchdog: watchdog, memoryLimit: memoryLimit)
    }

    func assertReaped(_ pid: Int32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(kill(pid, 0), -1, "child \(pid) still exists", file: file, line: line)
        XCTAssertEqual(errno, ESRCH, file: file, line: line)
    }

    func testOutcomes() throws {
        let completed = try harness("exit 0").run(["reentry", "article"])
        XCTAssertEqual(completed.outcome, .completed)
        assertReaped(completed.pid)

        let trapped = try harness("kill -ILL $$").run(["reentry", "article"])
        XCTAssertEqual(trapped.outcome, .trapped(SIGILL))
        assertReaped(trapped.pid)

        let failed = try harness("echo nope >&2; exit 3").run(["reentry", "article"])
        XCTAssertEqual(failed.outcome, .failed(3))
        XCTAssertEqual(failed.stderr, "nope\n")
        assertReaped(failed.pid)
    }

    func testWatchdogKillsAndReapsAHungChild() throws {
        let started = SystemMonotonicClock()
        let hung = try harness("exec sleep 30", watchdog: .milliseconds(200)).run(["cross-thread-wait", "article"])
        XCTAssertEqual(hung.outcome, .deadlocked)
        XCTAssertLessThan(started.now().seconds, 10)
        assertReaped(hung.pid)
    }

    /// A child that writes more to stderr than a pipe holds (64 KiB on Linux) completes: the harness
    /// drains stderr as it is written, keeping its tail. Read only after the child's end, such a
    /// child blocks in `write` and the watchdog would call it deadlocked.
    func testAChattyChildIsNotCalledDeadlocked() throws {
        let chatty = "head -c 1000000 /dev/zero | tr '\\000' x >&2; echo last >&2; exit 0"
        let run = try harness(chatty, watchdog: .seconds(20)).run(["reentry", "article"])
        XCTAssertEqual(run.outcome, .completed)
        XCTAssertTrue(run.stderr.hasSuffix("xxxlast\n"), String(run.stderr.suffix(20)))
        XCTAssertLessThanOrEqual(run.stderr.utf8.count, 64 * 1024)
        assertReaped(run.pid)
    }

    /// The control: the same child with its stderr on a pipe nobody reads is still blocked in
    /// `write` long after it would have finished.
    func testAnUndrainedPipeBlocksTheSameChild() throws {
        let err = Pipe()
        let child = try SpawnedChild.spawn(
            "/bin/sh",
            arguments: ["-c", "head -c 1000000 /dev/zero | tr '\\000' x >&2; exit 0"],
            stderr: .descriptor(err.fileHandleForWriting.fileDescriptor)
        )
        try err.fileHandleForWriting.close()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertNil(child.poll(), "the child ended although nobody read its stderr")
        _ = child.killGroupAndReap()
    }

    // MARK: Out of memory

    /// A child that maps 2 GiB under the 1 GiB ceiling gets a real allocation failure (ENOMEM,
    /// which Python prints as "Cannot allocate memory") and is reported as out of memory, not as a
    /// failed probe. The control: the same child without a ceiling completes. (The mappings are
    /// never touched: nothing here takes memory from the machine.)
    func testAFailedAllocationIsOutOfMemory() throws {
        let script = "exec python3 -c 'import mmap; m = mmap.mmap(-1, 2 << 30); print(len(m))'"
        let oom = try harness(script).run(["reentry", "article"])
        XCTAssertEqual(oom.outcome, .outOfMemory, oom.stderr)
        XCTAssertTrue(oom.stderr.contains("Cannot allocate memory"), oom.stderr)
        assertReaped(oom.pid)

        let control = try harness(script, memoryLimit: nil).run(["reentry", "article"])
        XCTAssertEqual(control.outcome, .completed, control.stderr)
    }

    /// A child that fills its address space up to the ceiling and then waits forever (as a probe
    /// whose helper thread could not start waits for it) is out of memory when the watchdog fires,
    /// not deadlocked. The control: the same wait without the mappings is a deadlock.
    func testAHangAtTheCeilingIsOutOfMemoryNotADeadlock() throws {
        let hoard = """
            exec python3 -c '
            import mmap, time
            hoard = []
            try:
                while True: hoard.append(mmap.mmap(-1, 16 << 20))
            except OSError:
                pass
            time.sleep(30)'
            """
        let oom = try harness(hoard, watchdog: .seconds(3)).run(["cross-thread-wait", "article"])
        XCTAssertEqual(oom.outcome, .outOfMemory, oom.stderr)
        XCTAssertEqual(oom.stderr, "", "nothing on stderr: only the address space tells")
        assertReaped(oom.pid)

        let control = try harness("exec python3 -c 'import time; time.sleep(30)'", watchdog: .seconds(3)).run([
            "cross-thread-wait", "article",
        ])
        XCTAssertEqual(control.outcome, .deadlocked)
        assertReaped(control.pid)
    }

    /// A SIGKILL the harness did not send is the kernel's OOM killer; a trap's signal stays a trap.
    func testAForeignSIGKILLIsOutOfMemory() throws {
        let killed = try harness("kill -KILL $$").run(["reentry", "article"])
        XCTAssertEqual(killed.outcome, .outOfMemory)
        let trapped = try harness("kill -TRAP $$").run(["reentry", "article"])
        XCTAssertEqual(trapped.outcome, .trapped(SIGTRAP))
    }
}
