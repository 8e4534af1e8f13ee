import Foundation
import TestSupport
import XCTest

@testable import Records

/// An output path is replaced only where it is a regular file or absent: a symlink is followed
/// (link kept), a FIFO or device is written through, a failed write is an error naming the path.
/// Each check is first shown to catch the violation: the old way (a temporary file renamed over
/// the path, `renameOver`) run on a path of our own fails it.
final class OutputPathTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = try temporaryFolder("outputpath")
    }

    /// What the writer did before: bytes to a temporary file beside the path, renamed over it.
    func renameOver(_ text: String, _ path: String) throws {
        let temporary = path + ".control.tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw POSIXError(.EIO) }
    }

    func fileType(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// The link is still a link to the same target, and the target holds `text`.
    func linkKeptAndTargetWritten(link: String, target: String, _ text: String) -> Bool {
        fileType(link) == S_IFLNK && OutputDestination.readLink(link) == target && read(target) == text
    }

    func testSymlinkIsFollowedAndKept() throws {
        let target = dir + "/real.csv"
        let link = dir + "/link.csv"
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        XCTAssertEqual(symlink(target, link), 0)
        // Control: renaming over the link replaces it and leaves the target as it was.
        try renameOver("new", link)
        XCTAssertFalse(linkKeptAndTargetWritten(link: link, target: target, "new"))
        unlink(link)
        XCTAssertEqual(symlink(target, link), 0)

        try AtomicFile.write("new", to: link)
        XCTAssertTrue(linkKeptAndTargetWritten(link: link, target: target, "new"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["link.csv", "real.csv"])

        // A relative link to a target that does not exist yet, in another folder: created there.
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: false)
        XCTAssertEqual(symlink("sub/made.csv", dir + "/dangling.csv"), 0)
        let staged = try AtomicFile.stage(Data("made".utf8), to: dir + "/dangling.csv")
        XCTAssertEqual(staged.destination, dir + "/sub/made.csv", "the temporary file is beside the real target")
        XCTAssertTrue(staged.temporary.hasPrefix(dir + "/sub/"))
        try staged.commit()
        XCTAssertEqual(fileType(dir + "/dangling.csv"), S_IFLNK)
        XCTAssertEqual(OutputDestination.readLink(dir + "/dangling.csv"), "sub/made.csv")
        XCTAssertEqual(read(dir + "/sub/made.csv"), "made")
    }

    func testFIFOWithAReaderGetsTheDataAndStaysAFIFO() throws {
        let fifo = dir + "/stream"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Control: renaming over the FIFO replaces it with a regular file (its reader gets nothing).
        try renameOver("x", fifo)
        XCTAssertNotEqual(fileType(fifo), S_IFIFO)
        unlink(fifo)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)

        // More than a pipe holds (64 KiB), so the writer must wait for the reader and loop.
        let text = String(repeating: "0123456789abcdef\n", count: 20_000)
        let received = Received()
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            guard fd >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = Foundation.read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                received.append(buffer[0..<n])
            }
            close(fd)
        }
        reader.start()
        try AtomicFile.write(text, to: fifo)
        let deadline = Date().addingTimeInterval(10)
        while received.data.count < text.utf8.count, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(String(decoding: received.data, as: UTF8.self), text)
        XCTAssertEqual(fileType(fifo), S_IFIFO)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["stream"], "no temporary file")
    }

    /// A character device of our own (the full device's numbers, made in the temporary folder):
    /// written through, and its ENOSPC is an error naming the path. /dev/full itself is only
    /// written once `resolve` says it is written through (the fix is in place).
    func testFullDeviceFailsTheWriteAndStaysADevice() throws {
        let node = dir + "/full"
        var full = stat()
        guard stat("/dev/full", &full) == 0, full.st_mode & S_IFMT == S_IFCHR else { throw XCTSkip("no /dev/full here") }
        guard mknod(node, S_IFCHR | 0o666, full.st_rdev) == 0 else {
            throw XCTSkip("mknod needs root (CAP_MKNOD): \(String(cString: strerror(errno)))")
        }
        // Control: renaming over the device node replaces it with a regular file, and no error.
        try renameOver("x", node)
        XCTAssertEqual(fileType(node), S_IFREG)
        unlink(node)
        XCTAssertEqual(mknod(node, S_IFCHR | 0o666, full.st_rdev), 0)

        XCTAssertEqual(try OutputDestination.resolve(node), .through(node))
        XCTAssertThrowsError(try AtomicFile.write("trace", to: node)) { error in
            XCTAssertEqual("\(error)", "cannot write \(node): \(String(cString: strerror(ENOSPC)))")
        }
        XCTAssertEqual(fileType(node), S_IFCHR)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["full"], "no temporary file")
        // The same through a staged pair (the results folder's CSV and JSON).
        let staged = try AtomicFile.stage(Data("csv".utf8), to: node)
        XCTAssertThrowsError(try staged.commit())
        XCTAssertEqual(fileType(node), S_IFCHR)

        // The real /dev/full, only after a dry check that it would be written through.
        guard (try? OutputDestination.resolve("/dev/full")) == .through("/dev/full") else {
            return XCTFail("/dev/full would not be written through; not writing it")
        }
        XCTAssertThrowsError(try AtomicFile.write("trace", to: "/dev/full"))
        XCTAssertEqual(fileType("/dev/full"), S_IFCHR)
    }

    /// A file system that fills up mid-write (a 64 KiB tmpfs): an error naming the path, the old
    /// file left whole, no temporary file left behind.
    func testFullFileSystemFailsTheWriteAndKeepsTheOldFile() throws {
        let mountPoint = dir + "/small"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else { throw XCTSkip("cannot mount a tmpfs here (needs root)") }
        defer {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [mountPoint]
            try? umount.run()
            umount.waitUntilExit()
        }
        let path = mountPoint + "/results.csv"
        try AtomicFile.write("old", to: path)
        let big = Data(repeating: 0x41, count: 200_000)
        // Control: a writer that does not check its writes leaves a short file and says nothing.
        let handle = fopen(mountPoint + "/control.csv", "w")
        _ = big.withUnsafeBytes { fwrite($0.baseAddress, 1, big.count, handle) }
        fclose(handle)
        let short = (try? FileManager.default.attributesOfItem(atPath: mountPoint + "/control.csv")[.size] as? Int) ?? 0
        XCTAssertLessThan(short, big.count, "the tmpfs is too large to fill")
        unlink(mountPoint + "/control.csv")

        XCTAssertThrowsError(try AtomicFile.write(big, to: path)) { error in
            XCTAssertEqual("\(error)", "cannot write \(path): \(String(cString: strerror(ENOSPC)))")
        }
        XCTAssertEqual(read(path), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mountPoint), ["results.csv"])
    }

    func testDescriptorsAndFoldersResolve() throws {
        XCTAssertEqual(try OutputDestination.resolve("/dev/stdout"), .descriptor(1))
        XCTAssertEqual(try OutputDestination.resolve("/dev/fd/5"), .descriptor(5))
        XCTAssertEqual(try OutputDestination.resolve("/proc/self/fd/2"), .descriptor(2))
        XCTAssertEqual(try OutputDestination.resolve(dir + "/absent.csv"), .replace(dir + "/absent.csv"))
        XCTAssertThrowsError(try OutputDestination.resolve(dir)) { error in
            XCTAssertEqual("\(error)", "cannot write \(dir): is a folder, not a file")
        }
        XCTAssertEqual(symlink(dir + "/loop", dir + "/loop"), 0)
        XCTAssertThrowsError(try OutputDestination.resolve(dir + "/loop"))
    }

    /// A streamed output (a trace written as it is made) goes through the same rules.
    func testWriterStreamsIntoATemporaryFileUntilCommit() throws {
        let path = dir + "/trace.bin"
        let writer = try AtomicFile.Writer(path: path)
        try writer.write(Data("one,".utf8))
        XCTAssertNil(read(path), "nothing in place before commit")
        try writer.write(Data("two".utf8))
        try writer.commit()
        XCTAssertEqual(read(path), "one,two")
        let abandoned = try AtomicFile.Writer(path: path)
        try abandoned.write(Data("half".utf8))
        abandoned.discard()
        XCTAssertEqual(read(path), "one,two")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["trace.bin"])
    }
}

/// What the FIFO's reader thread received; `lock` guards `bytes`.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    var data: Data { lock.withLock { bytes } }
    func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { bytes.append(contentsOf: chunk) } }
}
