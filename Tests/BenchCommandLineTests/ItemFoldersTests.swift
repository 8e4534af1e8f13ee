import Foundation
import TestSupport
import XCTest

@testable import BenchCommandLine

/// The sweep removes the item folders of runs that are gone and keeps those of live runs.
final class ItemFoldersTests: XCTestCase {
    /// A pid that no process has: a child that has already ended and been reaped.
    func deadPid() throws -> pid_t {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    func testTheSweepRemovesADeadRunsFoldersAndKeepsALiveOnes() throws {
        let directory = URL(fileURLWithPath: try temporaryFolder("item-folders"))
        let dead = try deadPid()
        let stale = directory.appendingPathComponent("patternbench-item-\(dead)-3-\(UUID().uuidString)")
        // The control: this process is alive, so its folder stays, as does a folder of another name.
        let live = directory.appendingPathComponent("patternbench-item-\(getpid())-0-\(UUID().uuidString)")
        let other = directory.appendingPathComponent("patternbench-items-\(dead)")
        for folder in [stale, live, other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: folder.appendingPathComponent("sample.json"))
        }
        XCTAssertFalse(ItemFolders.isAlive(dead))

        XCTAssertEqual(ItemFolders.sweepStale(in: directory), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), "a dead run's folder is swept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path), "a live run's folder is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path), "only item folders are touched")

        // The same folder of a pid taken as alive is kept: the sweep keys on the pid, nothing else.
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        XCTAssertEqual(ItemFolders.sweepStale(in: directory, isAlive: { _ in true }), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stale.path))
        // Another user's folder of a dead run (here: this user's, swept as someone else) is kept.
        XCTAssertEqual(ItemFolders.sweepStale(in: directory, user: geteuid() &+ 1), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stale.path), "another user's folder is kept")
        XCTAssertEqual(ItemFolders.sweepStale(in: directory), 1)
        // An interrupted run removes its own.
        XCTAssertEqual(ItemFolders.removeOwn(in: directory), 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: live.path))
    }

    func testOwnerIsReadFromTheName() {
        XCTAssertEqual(ItemFolders.owner(of: "patternbench-item-4242-7-ABC-DEF"), 4242)
        XCTAssertNil(ItemFolders.owner(of: "patternbench-item-x-7"))
        XCTAssertNil(ItemFolders.owner(of: "patternbench-faults-1"))
    }
}
