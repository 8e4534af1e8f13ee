import Foundation

/// An append-only file written through a fixed buffer: what the driver streams a run's records,
/// values and trace packets into as items finish, so that memory holds one buffer, not the run.
///
/// `anonymous` spools are unlinked as soon as they are opened (the kernel frees them when the
/// process exits, even after a crash); `staged` ones are written under `AtomicFile`'s temporary
/// name beside their destination and put in place by `finish().commit()`, like `AtomicFile.stage`.
package final class SpoolFile {
    /// The path the bytes go to (the temporary name for a staged file).
    package let path: String
    /// The path errors name (the destination for a staged file).
    let destination: String
    private var fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let anonymous: Bool
    /// Bytes appended so far.
    package private(set) var size: Int64 = 0

    /// A hidden temporary spool in `folder`, removed from the folder at once.
    package static func anonymous(in folder: String, name: String, capacity: Int = 1 << 20) throws(AtomicFile.WriteError) -> SpoolFile {
        let path = (folder as NSString).appendingPathComponent(".\(name).\(getpid()).spool.tmp")
        let file = try SpoolFile(path: path, destination: path, capacity: capacity, anonymous: true)
        unlink(path)
        return file
    }

    /// A file that becomes `destination` when finished and committed.
    package static func staged(to destination: String, capacity: Int = 1 << 20) throws(AtomicFile.WriteError) -> SpoolFile {
        try SpoolFile(path: AtomicFile.temporaryPath(for: destination), destination: destination, capacity: capacity, anonymous: false)
    }

    private init(path: String, destination: String, capacity: Int, anonymous: Bool) throws(AtomicFile.WriteError) {
        self.path = path
        self.destination = destination
        self.capacity = capacity
        self.anonymous = anonymous
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AtomicFile.WriteError(path: destination, reason: String(cString: strerror(errno))) }
        buffer.reserveCapacity(capacity)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            if !anonymous { unlink(path) }
        }
    }

    package func append(_ bytes: some Sequence<UInt8>) throws(AtomicFile.WriteError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    package func append(_ text: String) throws(AtomicFile.WriteError) { try append(text.utf8) }

    /// Appends raw values (native byte order): a spool of numbers read back by `readAll(as:)`.
    package func append<T: BitwiseCopyable>(value: T) throws(AtomicFile.WriteError) {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    package func flush() throws(AtomicFile.WriteError) {
        var offset = 0
        var failure: String?
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
        size += Int64(offset)
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw AtomicFile.WriteError(path: destination, reason: failure) }
    }

    /// Reads the whole spool back from its start in chunks of the buffer's size.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: max(capacity, 1 << 16))
        var offset: Int64 = 0
        while offset < size {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(offset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AtomicFile.WriteError(path: destination, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            offset += Int64(n)
        }
    }

    /// Appends another spool's whole content.
    package func append(contentsOf other: SpoolFile) throws {
        try other.forEachChunk { chunk throws(AtomicFile.WriteError) in try append(chunk) }
    }

    /// Flushes to the disk and closes a staged file; `commit()` on the result puts it in place.
    package func finish() throws(AtomicFile.WriteError) -> AtomicFile.Staged {
        try flush()
        let ok = fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        fd = -1
        guard ok else {
            unlink(path)
            throw AtomicFile.WriteError(path: destination, reason: reason)
        }
        return AtomicFile.Staged(temporary: path, destination: destination)
    }

    /// Copies the spool to standard output.
    package func copyToStandardOutput() throws {
        try forEachChunk { chunk in FileHandle.standardOutput.write(Data(chunk)) }
    }

    /// Copies the file at `path` to standard output in chunks (a results file that may be larger
    /// than memory).
    package static func copyToStandardOutput(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AtomicFile.WriteError(path: path, reason: "cannot be read back")
        }
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { FileHandle.standardOutput.write(chunk) }
    }
}
