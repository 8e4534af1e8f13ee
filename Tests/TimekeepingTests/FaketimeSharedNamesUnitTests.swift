import Foundation
import XCTest

@testable import Timekeeping

#if canImport(Glibc)
import Glibc
#endif

/// `FaketimeSharedNames.release` unlinks exactly the two names `FAKETIME_SHARED` gives, as the
/// wrapper writes it ("<semaphore> <shared memory>"); the live end-to-end test is
/// `FaketimeSharedNamesTests`. Linux (/dev/shm).
final class FaketimeSharedNamesUnitTests: XCTestCase {
    func testReleasesTheTwoNamedObjects() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/shm"), "needs /dev/shm")
        let tag = "pb_test_\(getpid())_\(UInt32.random(in: 0...UInt32.max))"
        let (sem, shm) = ("/\(tag)_sem", "/\(tag)_shm")
        let paths = ["/dev/shm/sem.\(tag)_sem", "/dev/shm/\(tag)_shm"]
        func make() throws {
            let s = try XCTUnwrap(sem_open(sem, O_CREAT | O_EXCL, 0o600, 1))
            XCTAssertNotEqual(s, SEM_FAILED)
            sem_close(s)
            let fd = shm_open(shm, O_CREAT | O_EXCL | O_RDWR, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            close(fd)
            XCTAssertEqual(paths.filter { FileManager.default.fileExists(atPath: $0) }.count, 2)
        }
        defer { for p in paths { try? FileManager.default.removeItem(atPath: p) } }

        try make()
        // Controls: no variable, or one not of two names, releases nothing.
        XCTAssertEqual(FaketimeSharedNames.release([:]), 0)
        XCTAssertEqual(FaketimeSharedNames.release(["FAKETIME_SHARED": sem]), 0)
        XCTAssertEqual(paths.filter { FileManager.default.fileExists(atPath: $0) }.count, 2)

        XCTAssertEqual(FaketimeSharedNames.release(["FAKETIME_SHARED": "\(sem) \(shm)"]), 2)
        XCTAssertEqual(paths.filter { FileManager.default.fileExists(atPath: $0) }, [])
        // Released already (the wrapper's own unlink then fails): nothing more to do.
        XCTAssertEqual(FaketimeSharedNames.release(["FAKETIME_SHARED": "\(sem) \(shm)"]), 0)
    }

    func testTheWrappersComplaintsAboutGoneNamesAreNoise() {
        XCTAssertTrue(FaketimeSharedNames.isCleanupNoise("faketime: sem_unlink: No such file or directory"))
        XCTAssertTrue(FaketimeSharedNames.isCleanupNoise("faketime: shm_unlink: No such file or directory"))
        XCTAssertFalse(FaketimeSharedNames.isCleanupNoise("faketime: shm_open: File exists"))
        XCTAssertFalse(FaketimeSharedNames.isCleanupNoise("bench-clock: error: cannot read the live plan"))
    }
}
