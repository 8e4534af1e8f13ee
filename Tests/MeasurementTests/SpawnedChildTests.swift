import Foundation
import Processes
import Testing
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `SpawnedChild` forks every child on one thread that lives as long as the process, because a
/// parent-death signal (`PR_SET_PDEATHSIG`) fires when the *thread* that forked the child ends,
/// not the process: a child started from a worker thread that then ends must live on.
final class SpawnedChildTests: XCTestCase {
    /// A program that does not exist is an error naming it, with the exec's reason.
    func testAMissingProgramIsAClearError() {
        XCTAssertThrowsError(try SpawnedChild.spawn("/nonexistent/tool", arguments: [])) { error in
            XCTAssertEqual("\(error)", "cannot start /nonexistent/tool: No such file or directory")
        }
    }

    /// The child gets stdout where it is sent and its exit status back.
    func testOutputAndStatus() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spawned-\(getpid())-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let child = try SpawnedChild.spawn("sh", arguments: ["-c", "echo hello; exit 3"], stdout: .file(file.path))
        XCTAssertEqual(child.wait(), .exited(3))
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "hello\n")
    }
}

/// `SpawnedChild`'s forking thread outlives the thread that asks for a child: see
/// `SpawnedChildTests`. Swift Testing, not XCTest (`swift test` within 180 s): the
/// test watches a child for 3 s, side by side with the other waiting tests. It looks at its own
/// children only, so other tests' processes cannot disturb it. A failed expectation fails
/// `swift test` as an XCTest failure does.
@Suite struct SpawnedChildThreadTests {
    /// Started from a thread that ends at once, the child is still running 3 s later. The
    /// control: forked on that thread itself, the child is killed when the thread ends (Linux).
    @Test(.enabled(if: isLinux, "PR_SET_PDEATHSIG is Linux's"), arguments: [false, true])
    func aChildOutlivesTheThreadThatStartedIt(forkOnCallingThread onThread: Bool) throws {
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var spawned: Result<SpawnedChild, any Error>?
        let thread = Thread {
            spawned = Result { try SpawnedChild.spawn("/bin/sleep", arguments: ["60"], forkOnCallingThread: onThread) }
            started.signal()
        }
        thread.start()
        started.wait()
        let child = try #require(spawned).get()
        defer { child.killGroupAndReap() }
        // The thread ends right after signalling; poll until the child ended or 3 s passed.
        let deadline = Date().addingTimeInterval(3)
        var ended: SpawnedChild.Termination?
        while ended == nil, Date() < deadline {
            ended = child.poll()
            Thread.sleep(forTimeInterval: 0.02)
        }
        if onThread {
            #expect(ended == .signaled(SIGKILL), "control: forked on a thread that ended, the child is killed with it")
        } else {
            #expect(ended == nil, "forked on the spawning thread, the child outlives the thread that asked for it")
        }
    }
}

#if os(Linux)
private let isLinux = true
#else
private let isLinux = false
#endif
