import Foundation
import Measurement
import XCTest

@testable import Locking

/// The parts of the allocator switch that can run inside the test process (the re-exec itself is
/// covered end to end by running bench-atomics).
final class AllocatorSwitchTests: XCTestCase {
    func testLocateFindsPathsAndRejectsMissingLibraries() throws {
        XCTAssertNil(AllocatorSwitch.locate("libjemalloc-not-installed.so.9", libraryPath: nil))
        XCTAssertNil(AllocatorSwitch.locate("/nonexistent/libjemalloc.so.2", libraryPath: nil))
        XCTAssertEqual(AllocatorSwitch.locate("/bin/sh", libraryPath: nil), "/bin/sh", "a name with a slash is a path")

        let folder = NSTemporaryDirectory() + "alloc-switch-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/libfake.so.1", contents: Data()))
        XCTAssertEqual(
            AllocatorSwitch.locate("libfake.so.1", libraryPath: "/nowhere:" + folder),
            folder + "/libfake.so.1",
            "LD_LIBRARY_PATH is searched first"
        )
    }

    func testTheTestProcessRunsOnTheSystemAllocator() throws {
        // No LD_PRELOAD here: jemalloc's counters are absent and `system` is accepted.
        guard ProcessInfo.processInfo.environment["LD_PRELOAD"] == nil else { throw XCTSkip("LD_PRELOAD is set") }
        XCTAssertNil(JemallocCounters.active())
        let active = try AllocatorSwitch.activate(.system)
        XCTAssertEqual(active.choice, .system)
        XCTAssertNil(active.jemalloc)
        XCTAssertTrue(active.countingMethod.hasPrefix("not counted"))
    }

    func testMissingJemallocIsReportedWithThePackageName() {
        let failure = AllocatorSwitch.Failure.notInstalled(library: "libjemalloc.so.2")
        XCTAssertTrue(failure.description.contains("libjemalloc2"))
        XCTAssertTrue(failure.description.contains("libjemalloc-dev"))
        XCTAssertFalse(failure.description.contains("\n"))
    }
}
